import { describe, expect, it } from "vitest";
import { DEFAULT_THEME, parseWebUiSetting } from "~/services/theme.server";
import { effectiveZone, offsetZone, zoneMode } from "~/services/timezone";

describe("parseWebUiSetting", () => {
  it("reads the styling object or the same fields flat", () => {
    expect(parseWebUiSetting(JSON.stringify({ styling: { mainColor: "#112233", hoverColor: "#445566", logo: "webui/logo.png" } }))).toMatchObject({
      mainColor: "#112233",
      hoverColor: "#445566",
      logo: "webui/logo.png",
    });
    expect(parseWebUiSetting(JSON.stringify({ mainColor: "#abc" })).mainColor).toBe("#abc");
  });
  it("falls back to the defaults for default_image, bad JSON and unsafe colours", () => {
    expect(parseWebUiSetting(JSON.stringify({ logo: "default_image" })).logo).toBeNull();
    expect(parseWebUiSetting("{not json")).toEqual(DEFAULT_THEME);
    expect(parseWebUiSetting(JSON.stringify({ mainColor: "red; background:url(x)" })).mainColor).toBe("#3056a8");
    expect(parseWebUiSetting(undefined)).toEqual(DEFAULT_THEME);
  });
});

describe("time zones", () => {
  it("derives the mode from the user fields", () => {
    expect(zoneMode({ Timezone: "Europe/Rome", TimezoneDiffSec: 0, TimezoneUseDST: true })).toBe("name");
    expect(zoneMode({ Timezone: "", TimezoneDiffSec: 3600, TimezoneUseDST: false })).toBe("offset");
    expect(zoneMode({ Timezone: "", TimezoneDiffSec: 0, TimezoneUseDST: true })).toBe("browser");
  });
  it("formats offsets Intl accepts", () => {
    expect(offsetZone(90)).toBe("+01:30");
    expect(offsetZone(-300)).toBe("-05:00");
    const zone = effectiveZone({ Timezone: "", TimezoneDiffSec: 5400, TimezoneUseDST: false }, "", "UTC");
    const hour = new Intl.DateTimeFormat("en", { hour: "numeric", hourCycle: "h23", timeZone: zone }).format(new Date("2026-01-01T00:00:00Z"));
    expect(Number(hour)).toBe(1);
  });
  it("uses the browser zone, then the default", () => {
    const browser = { Timezone: "", TimezoneDiffSec: 0, TimezoneUseDST: true };
    expect(effectiveZone(browser, "America/New_York", "UTC")).toBe("America/New_York");
    expect(effectiveZone(browser, "", "Europe/Rome")).toBe("Europe/Rome");
    expect(effectiveZone(null, "", "UTC")).toBe("UTC");
  });
});
