import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import en from "~/locales/en";
import itTexts from "~/locales/it";
import type { StorageFigures } from "~/services/logger/schemas";
import { storageFigures } from "~/services/logger/schemas";
import { bytesText, diskEstimateText } from "~/ui/DiskEstimate";

// Issue 29: "at this rate this disk holds ~N days" on the Simple Config screen, from the
// logger's ConfigAPI.GetStorage figures, in English and Italian.

async function t(lng: "en" | "it") {
  const i18n = createInstance();
  await i18n.init({ resources: { en: { translation: en }, it: { translation: itTexts } }, lng, interpolation: { escapeValue: false } });
  return i18n.t;
}

// 16 channels at 100 Hz: 138.24 M samples a day; at 2.5 bytes, 345.6 MB a day.
const figures: StorageFigures = { Engine: "embedded", StoreBytes: 4e9, FreeBytes: 100e9, BytesPerSample: 2.5, Measured: true, SamplesPerDay: 16 * 100 * 86_400, RetentionSec: 90 * 86_400 };

describe("disk estimate", () => {
  it("says how many days the disk holds at this rate, and whether the retention fits", async () => {
    expect(diskEstimateText(figures, await t("en"), "en-US")).toBe(
      "At this rate this disk holds ~300 days of history: 346 MB a day at 2.50 bytes per sample, 100 GB free. The retention of 90 days keeps about 31 GB: it fits.",
    );
    expect(diskEstimateText({ ...figures, FreeBytes: 10e9, RetentionSec: 365 * 86_400 }, await t("en"), "en-US")).toBe(
      "At this rate this disk holds ~40 days of history: 346 MB a day at 2.50 bytes per sample, 10 GB free. The retention of 365 days needs about 126 GB: the disk fills up first.",
    );
    expect(diskEstimateText({ ...figures, RetentionSec: null }, await t("it"), "it-IT")).toBe(
      "A questa frequenza il disco contiene circa 300 giorni di storico: 346 MB al giorno a 2,50 byte per campione, 100 GB liberi.",
    );
  });

  it("speaks of the database server's disk on PostgreSQL, of no growth when nothing is acquired, and of an assumed size", async () => {
    expect(diskEstimateText({ ...figures, Engine: "postgres", FreeBytes: null }, await t("en"), "en-US")).toBe(
      "At this rate the store grows by 346 MB a day (2.50 bytes per sample) on the PostgreSQL server's disk.",
    );
    expect(diskEstimateText({ ...figures, SamplesPerDay: 0 }, await t("it"), "it-IT")).toBe("Non viene acquisito nulla: l'archivio non cresce.");
    expect(diskEstimateText({ ...figures, Measured: false, BytesPerSample: 4.32, FreeBytes: 1e9, StoreBytes: 0, RetentionSec: null, SamplesPerDay: 1e9 / 4.32 }, await t("en"), "en-US")).toBe(
      "At this rate this disk holds ~1 day of history: 1 GB a day at 4.32 bytes per sample, 1 GB free. No block of samples is complete yet: until one is, the size of unpacked samples is assumed.",
    );
  });

  it("writes sizes in the largest unit, and validates the logger's figures", () => {
    expect(bytesText("en-US", 999)).toBe("999 byte");
    expect(bytesText("en-US", 1_500_000)).toBe("1.5 MB");
    expect(bytesText("it-IT", 2.25e12)).toBe("2,3 TB");
    expect(storageFigures.safeParse(figures).success).toBe(true);
    expect(storageFigures.safeParse({ ...figures, BytesPerSample: -1 }).success).toBe(false);
    expect(storageFigures.safeParse({ ...figures, FreeBytes: "lots" }).success).toBe(false);
  });
});
