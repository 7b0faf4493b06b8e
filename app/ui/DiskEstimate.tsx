import type { TFunction } from "i18next";
import type { StorageFigures } from "~/services/logger/schemas";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";

// "At this rate this disk holds ~N days" on the Simple Config screen (issue 29): the logger's
// ConfigAPI.GetStorage figures — bytes per sample as rows are stored now, samples a day at the
// configured rates, the free disk — in words. Days = (free + what the store holds) / bytes a day.

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** A byte count in the largest unit that keeps it ≥ 1 (1000-based, as disks are sold). */
export function bytesText(locale: string, n: number): string {
  let i = 0;
  while (i < UNITS.length - 1 && n >= 1000) (n /= 1000), i++;
  return new Intl.NumberFormat(locale, { style: "unit", unit: UNITS[i], unitDisplay: "short", maximumFractionDigits: n < 10 && i > 0 ? 1 : 0 }).format(n);
}

/** The sentences of the estimate, in the user's language and number format. */
export function diskEstimateText(storage: StorageFigures, t: TFunction, locale: string): string {
  const number = (n: number, digits: number) => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
  const perDay = storage.SamplesPerDay * storage.BytesPerSample;
  const size = (n: number) => bytesText(locale, n);
  const bps = number(storage.BytesPerSample, 2);
  const lines: string[] = [];
  if (perDay === 0) {
    lines.push(t("config.disk.idle"));
  } else if (storage.FreeBytes === null) {
    lines.push(t("config.disk.database", { perDay: size(perDay), bps }));
  } else {
    const days = Math.floor((storage.FreeBytes + storage.StoreBytes) / perDay);
    lines.push(t("config.disk.holds", { days: number(days, 0), count: days, perDay: size(perDay), bps, free: size(storage.FreeBytes) }));
    if (storage.RetentionSec !== null) {
      const kept = storage.RetentionSec / 86_400;
      const shown = number(kept, Number.isInteger(kept) ? 0 : 1);
      lines.push(t(kept <= days ? "config.disk.retentionFits" : "config.disk.retentionTooLong", { days: shown, count: kept, need: size(kept * perDay) }));
    }
  }
  if (!storage.Measured) lines.push(t("config.disk.assumed"));
  return lines.join(" ");
}

export function DiskEstimate({ storage }: { storage: StorageFigures | null }) {
  const t = useT();
  const locale = useRootData()?.localeId ?? "en-US";
  if (!storage) return null;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="disk-estimate">
      {diskEstimateText(storage, t, locale)}
    </p>
  );
}
