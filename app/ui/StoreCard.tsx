import type { StoreState } from "~/services/logger/schemas";
import { formatSize } from "./fileSize";
import { useFormatters } from "./format";
import { useRootData } from "./rootData";
import { useT } from "./useT";

// Project State's storage card (issue 24 §7): whether the logger's series store takes writes,
// how full its outage buffer is while it does not, and what the last outage cost
// (docs/storage.md, "Store outages").

/** A duration in the locale's words: seconds below two minutes, minutes below two hours, else hours. */
function useDuration() {
  const locale = useRootData()?.localeId ?? "en-US";
  return (sec: number) => {
    const [value, unit] = sec < 120 ? [sec, "second"] : sec < 7200 ? [sec / 60, "minute"] : [sec / 3600, "hour"];
    return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: unit === "hour" ? 1 : 0 }).format(value);
  };
}

export function StoreCard({ store }: { store: StoreState }) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  const duration = useDuration();
  const locale = useRootData()?.localeId ?? "en-US";
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(store.Fill);
  const limits = { limitSize: formatSize(store.LimitBytes, number), limitAge: duration(store.LimitSec) };
  const state = store.Full ? "full" : store.Writing ? "writing" : "failing";
  return (
    <div className="rounded-lg bg-white p-5 shadow-sm dark:bg-slate-800" data-testid="store-card" data-state={state}>
      <h2 className="mb-2 text-lg font-semibold">{t("devices.store.title")}</h2>
      <p className="mb-1">{t(store.Engine === "postgres" ? "devices.store.enginePostgres" : "devices.store.engineSqlite")}</p>
      <p className="mb-2 flex items-center gap-2" role={state === "writing" ? undefined : "status"}>
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${state === "writing" ? "bg-green-500" : state === "failing" ? "bg-amber-500" : "bg-red-600"}`} />
        {state === "writing" && t("devices.store.writing")}
        {state === "failing" && t("devices.store.failing", { when: store.FailingSince === null ? "—" : dateTime(store.FailingSince) })}
        {state === "full" && t("devices.store.full", { when: store.FullSince === null ? "—" : dateTime(store.FullSince), count: store.DroppedSamples, samples: number(store.DroppedSamples) })}
      </p>
      {state === "writing" ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("devices.store.bound", limits)}</p>
      ) : (
        <>
          <p className="text-sm">{t("devices.store.buffer", { size: formatSize(store.UnsavedBytes, number), age: duration(store.UnsavedSec), percent, ...limits })}</p>
          <progress className="mt-1 w-full" max={1} value={store.Fill} aria-label={t("devices.store.fill", { percent })} />
        </>
      )}
      {store.LastLoss && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300" data-testid="store-loss">
          {t("devices.store.lastLoss", { from: dateTime(store.LastLoss.From), to: dateTime(store.LastLoss.To), count: store.LastLoss.Samples, samples: number(store.LastLoss.Samples) })}
        </p>
      )}
    </div>
  );
}
