import { describe, expect, it } from "vitest";
import { bannerOrder } from "~/services/header.server";
import { reasonOf, summarizeQuality, type QualityFacts } from "~/ui/live/quality";
import { mergeValues } from "~/ui/live/useLiveValues";

// Issue 26 §3: one quality model — Live / Stale (age) / Offline with the reason where it is known —
// and the page's badge the worst of what it shows.
const NOW = 1_800_000_000_000;
const running: QualityFacts = { acquisition: { running: true, since: NOW - 3_600_000, by: "admin" }, disconnected: {} };
const stopped: QualityFacts = { acquisition: { running: false, since: NOW - 26_000, by: "admin" }, disconnected: {} };

describe("value quality", () => {
  it("judges each value by its own time and period, the page by the worst, never Live over a stale value", () => {
    const q = summarizeQuality({ a: NOW - 100, b: NOW - 26_000 }, { a: 10, b: 10 }, NOW, "ok", running);
    expect(q.each).toEqual({ a: "live", b: "stale" });
    expect(q.state).toBe("stale");
    expect(q.ageMs).toBe(26_000);
    expect(q.ages).toEqual({ a: 100, b: 26_000 });
  });

  it("says acquisition was stopped, by whom and when, for values that stopped", () => {
    const q = summarizeQuality({ a: NOW - 26_000 }, { a: 10 }, NOW, "ok", stopped);
    expect(q.state).toBe("stale");
    expect(q.reason).toEqual({ kind: "stopped", by: "admin", at: NOW - 26_000 });
    expect(q.reasons.a).toEqual(q.reason);
  });

  it("names a disconnected device for its own variables only", () => {
    const facts: QualityFacts = { acquisition: { running: true, since: null, by: null }, disconnected: { w: "Weather station" } };
    const q = summarizeQuality({ w: NOW - 60_000, a: NOW - 60_000 }, { w: 1000, a: 1000 }, NOW, "ok", facts);
    expect(q.reasons).toEqual({ w: { kind: "disconnected", device: "Weather station" }, a: null });
  });

  it("makes everything offline when the logger does not answer or the console is lost, whatever the ages", () => {
    const fresh = { a: NOW - 10 };
    expect(summarizeQuality(fresh, { a: 10 }, NOW, "logger", running)).toMatchObject({ state: "offline", reason: { kind: "logger" } });
    expect(summarizeQuality(fresh, { a: 10 }, NOW, "network", running)).toMatchObject({ state: "offline", reason: { kind: "network" } });
    // Nothing shown at all, the logger away: offline, not "live".
    expect(summarizeQuality({}, {}, NOW, "logger", null)).toMatchObject({ state: "offline", reason: { kind: "logger" } });
    expect(reasonOf("a", "live", "ok", stopped)).toBeNull();
  });

  it("keeps the last reading when the stream says a value is gone (stopped, disconnected)", () => {
    expect(mergeValues({ a: 86.5, b: 1 }, { a: null, b: 0, c: null })).toEqual({ a: 86.5, b: 0, c: null });
  });
});

describe("the alarm banner's choice", () => {
  it("is the highest priority first, then the newest activation", () => {
    const a = (Severity: "critical" | "high" | "medium" | "low", at: string) => ({ Severity, ActivatedAt: at, Since: at });
    const list = [a("medium", "2026-11-28T10:00:05Z"), a("critical", "2026-11-28T09:00:00Z"), a("critical", "2026-11-28T09:30:00Z"), a("low", "2026-11-28T11:00:00Z")];
    expect(list.toSorted(bannerOrder).map((x) => `${x.Severity}@${x.ActivatedAt.slice(11, 16)}`)).toEqual(["critical@09:30", "critical@09:00", "medium@10:00", "low@11:00"]);
  });
});
