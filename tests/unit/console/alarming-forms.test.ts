import { describe, expect, it } from "vitest";
import { ruleSchema, targetSchema, toLoggerRule } from "~/schemas/rules";
import { csvCell, csvText } from "~/services/csv";
import { parseWallTime } from "~/ui/dashboard/timeRange";

describe("parseWallTime", () => {
  it("reads a datetime-local value in the user's zone, across DST", () => {
    expect(parseWallTime("2026-11-03T09:30", "Europe/Rome")).toBe(Date.UTC(2026, 10, 3, 8, 30));
    expect(parseWallTime("2026-07-03T09:30", "Europe/Rome")).toBe(Date.UTC(2026, 6, 3, 7, 30));
    expect(parseWallTime("2026-07-03T09:30:15", "UTC")).toBe(Date.UTC(2026, 6, 3, 9, 30, 15));
    expect(parseWallTime("2026-07-03T09:30", "+05:30")).toBe(Date.UTC(2026, 6, 3, 4, 0));
    expect(parseWallTime("yesterday", "UTC")).toBeNull();
  });
});

describe("CSV", () => {
  it("quotes per RFC 4180 and defuses formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvText([["a", "b"], ["1", "x\ny"]])).toBe('\uFEFFa,b\r\n1,"x\ny"\r\n');
  });
});

describe("rule form", () => {
  const base = { name: "Hot", variable: "v1", severity: "high", targets: [], notifyOn: [] };
  it("asks for what the type needs", () => {
    const range = ruleSchema.safeParse({ ...base, type: "range", high: 1, low: 5 });
    expect(range.success).toBe(false);
    expect(range.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["high", "rules.validation.highAboveLow"]]);
    const digital = ruleSchema.safeParse({ ...base, type: "digital" });
    expect(digital.error!.issues[0]!.message).toBe("rules.validation.required");
  });
  it("clears the limits a type does not use", () => {
    const v = ruleSchema.parse({ ...base, type: "low", high: 9, low: 2, deadband: 0.5, inService: true });
    expect(toLoggerRule(v)).toMatchObject({ Type: "low", High: null, Low: 2, Deadband: 0.5, RatePerSec: null, State: null, InService: true });
  });
  it("reads several e-mail addresses and checks each", () => {
    const ok = targetSchema.parse({ type: "email", name: "Shift", smtpHost: "mail", smtpPort: 25, from: "a@b.example", to: "x@b.example, y@b.example" });
    expect(ok.type === "email" && ok.to).toEqual(["x@b.example", "y@b.example"]);
    expect(targetSchema.safeParse({ type: "email", name: "Shift", smtpHost: "mail", smtpPort: 25, from: "a@b.example", to: "x@b.example, nope" }).success).toBe(false);
  });
});
