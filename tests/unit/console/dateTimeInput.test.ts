import { describe, expect, it } from "vitest";
import { canonicalQuery, dateOrder, parseTypedDateTime, showDateTime } from "~/ui/dateTimeInput";

// Issue 15 §6: date and time fields show and accept the user's locale format.
describe("date-time fields", () => {
  it("know each locale's order", () => {
    expect(dateOrder("en-US")).toBe("mdy");
    expect(dateOrder("it-IT")).toBe("dmy");
  });
  it("show a wall time in the locale's format with the 24-hour clock", () => {
    expect(showDateTime("2026-11-23T14:05", "en-US")).toBe("11/23/2026 14:05");
    expect(showDateTime("2026-11-23T14:05", "it-IT")).toBe("23/11/2026 14:05");
    expect(showDateTime("2026-11-23T04:05:07", "it-IT")).toBe("23/11/2026 04:05:07");
    expect(showDateTime("nonsense", "it-IT")).toBe("nonsense");
  });
  it("accept what they show, and ISO", () => {
    expect(parseTypedDateTime("11/23/2026 14:05", "en-US")).toBe("2026-11-23T14:05");
    expect(parseTypedDateTime("23/11/2026 14:05", "it-IT")).toBe("2026-11-23T14:05");
    expect(parseTypedDateTime("3/1/2026 9:05:30", "it-IT")).toBe("2026-01-03T09:05:30");
    expect(parseTypedDateTime("23/11/2026", "it-IT")).toBe("2026-11-23T00:00");
    expect(parseTypedDateTime("2026-11-23T14:05", "it-IT")).toBe("2026-11-23T14:05");
  });
  it("refuse what is not a real date and time", () => {
    expect(parseTypedDateTime("23/11/2026 14:05", "en-US")).toBeNull();
    expect(parseTypedDateTime("31/02/2026 10:00", "it-IT")).toBeNull();
    expect(parseTypedDateTime("01/02/2026 24:00", "it-IT")).toBeNull();
    expect(parseTypedDateTime("tomorrow", "en-US")).toBeNull();
  });
  it("turn typed values of a query canonical and leave the rest", () => {
    const q = canonicalQuery(new URLSearchParams("span=absolute&from=23/11/2026 14:05&to=24/11/2026 08:00&v=a"), "it-IT");
    expect(q?.toString()).toBe("span=absolute&from=2026-11-23T14%3A05&to=2026-11-24T08%3A00&v=a");
    expect(canonicalQuery(new URLSearchParams("from=2026-11-23T14:05"), "it-IT")).toBeNull();
    expect(canonicalQuery(new URLSearchParams("from=31/02/2026 10:00"), "it-IT")).toBeNull();
  });
});
