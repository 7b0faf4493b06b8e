import { describe, expect, it } from "vitest";
import { formatDateTime, formatValue } from "~/ui/format";

// Issue 15 §6: one time convention (24-hour clock) in every locale; no "-0".
describe("formatDateTime", () => {
  const at = Date.UTC(2026, 10, 23, 14, 5, 9);
  it("uses the 24-hour clock in English and Italian", () => {
    const en = formatDateTime("en-US", "UTC", at);
    const it = formatDateTime("it-IT", "UTC", at);
    expect(en).toContain("14:05:09");
    expect(en).not.toMatch(/AM|PM/);
    expect(it).toContain("14:05:09");
  });
  it("shows midnight as 00, not 24 or 12", () => {
    expect(formatDateTime("en-US", "UTC", Date.UTC(2026, 0, 1, 0, 3))).toContain("00:03:00");
  });
  it("uses the user's zone", () => {
    expect(formatDateTime("it-IT", "Europe/Rome", at)).toContain("15:05:09");
  });
  it("writes the date as the date fields take it (issue 28 §7)", () => {
    expect(formatDateTime("en-US", "UTC", at)).toBe("11/23/2026 14:05:09");
    expect(formatDateTime("it-IT", "UTC", at)).toBe("23/11/2026 14:05:09");
    expect(formatDateTime("it-IT", "UTC", "not a date")).toBe("not a date");
  });
});

describe("formatValue", () => {
  it("never shows -0", () => {
    expect(formatValue("en-US", -0.2, 0)).toBe("0");
    expect(formatValue("en-US", -0)).toBe("0");
    expect(formatValue("it-IT", -0.0004)).toBe("0");
    expect(formatValue("en-US", -0.04, 1)).toBe("0.0");
  });
  it("keeps real negatives and the precision", () => {
    expect(formatValue("en-US", -1.25, 1)).toMatch(/^-1\.[23]$/);
    expect(formatValue("it-IT", -1234.5, 1)).toBe("-1234,5");
    expect(formatValue("en-US", null)).toBe("—");
  });
});
