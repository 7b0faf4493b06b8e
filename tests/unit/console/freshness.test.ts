import { describe, expect, it } from "vitest";
import { freshnessOf, mergeTimes, staleAfterMs, summarizeFreshness } from "~/ui/live/freshness";
import { formatAge } from "~/ui/live/LiveBadge";
import { parseCycle, planCycle } from "~/ui/kiosk/kioskCycle";

// Issue 15 §1: a value older than 3 sample periods is stale; a lost stream makes all offline.
describe("freshness", () => {
  const now = 1_000_000;
  it("is stale past three sample periods, never sooner than the stream's tick allows", () => {
    expect(staleAfterMs(1000)).toBe(3000);
    expect(staleAfterMs(10)).toBe(2000);
    expect(staleAfterMs(null)).toBe(5000);
    expect(freshnessOf(now - 2900, 1000, now)).toBe("live");
    expect(freshnessOf(now - 3100, 1000, now)).toBe("stale");
    expect(freshnessOf(null, 1000, now)).toBe("stale");
    expect(freshnessOf(now, 1000, now, false)).toBe("offline");
  });

  it("keeps a frozen value's age when a new stream subscription knows no time for it", () => {
    // The page knew a (now 12 s old) and b; the stream, subscribed again after acquisition
    // stopped, sends a with no time, b newer, and c the page had not judged yet.
    const times = mergeTimes({ a: now - 12_000, b: now - 9_000 }, { a: null, b: now - 500, c: null });
    expect(times).toEqual({ a: now - 12_000, b: now - 500, c: null });
    const s = summarizeFreshness(times, { a: 1000, b: 1000, c: 1000 }, now);
    expect(s.state).toBe("stale");
    expect(s.ageMs).toBe(12_000);
    expect(mergeTimes(undefined, { a: null })).toEqual({ a: null });
  });

  it("summarizes the worst state with the oldest stale value's age", () => {
    const s = summarizeFreshness({ a: now - 500, b: now - 12_000, c: now - 4_000 }, { a: 1000, b: 1000, c: 1000 }, now);
    expect(s.state).toBe("stale");
    expect(s.ageMs).toBe(12_000);
    expect(s.each).toEqual({ a: "live", b: "stale", c: "stale" });
  });

  it("is live with no age when every value is current", () => {
    expect(summarizeFreshness({ a: now - 100 }, { a: 100 }, now)).toEqual({ state: "live", ageMs: null, each: { a: "live" } });
  });

  it("says offline, aged by the newest value, when the connection is lost", () => {
    const s = summarizeFreshness({ a: now - 7_000, b: now - 30_000 }, {}, now, false);
    expect(s.state).toBe("offline");
    expect(s.ageMs).toBe(7_000);
    expect(Object.values(s.each)).toEqual(["offline", "offline"]);
  });

  it("a value that stops updating turns stale by the clock alone", () => {
    const times = { a: now };
    expect(summarizeFreshness(times, { a: 1000 }, now + 2_000).state).toBe("live");
    expect(summarizeFreshness(times, { a: 1000 }, now + 3_500).state).toBe("stale");
  });

  it("writes ages in the user's language", () => {
    expect(formatAge(12_400, "en-US")).toBe("12 sec");
    expect(formatAge(12_400, "it-IT")).toBe("12 s");
    expect(formatAge(5 * 60_000, "en-US")).toBe("5 min");
    expect(formatAge(3 * 3_600_000, "it-IT")).toBe("3 h");
  });
});

// Issue 15 §5: ?kiosk&cycle=<seconds> rotates through the dashboards.
describe("kiosk rotation", () => {
  it("accepts whole seconds from 5 to 3600 only", () => {
    expect(parseCycle("30")).toBe(30);
    expect(parseCycle("5")).toBe(5);
    expect(parseCycle("3600")).toBe(3600);
    for (const bad of [null, "", "4", "3601", "1.5", "-10", "abc", "1e3", "999999"]) expect(parseCycle(bad)).toBeNull();
  });

  const ids = ["a", "b", "c"];
  const p = (q: string) => new URLSearchParams(q);
  it("moves on to the next dashboard, and from the last to the first", () => {
    const plan = planCycle(p("kiosk&cycle=20"), ids, "c", 60, 1000)!;
    expect(plan.next).toBe("/dashboard?kiosk=&cycle=20&id=a");
    expect(plan.leftS).toBe(20);
    expect(plan.meta).toEqual({ seconds: 20, url: plan.next });
  });

  it("refreshes first when the dashboard's own refresh comes sooner, keeping the moment to move on", () => {
    const plan = planCycle(p("kiosk&cycle=60"), ids, "a", 10, 1000)!;
    expect(plan.meta).toEqual({ seconds: 10, url: "/dashboard?kiosk=&cycle=60&id=a&due=1060" });
    const later = planCycle(p("kiosk&cycle=60&due=1060"), ids, "a", 10, 1055)!;
    expect(later.leftS).toBe(5);
    expect(later.meta).toEqual({ seconds: 5, url: "/dashboard?kiosk=&cycle=60&id=b" });
  });

  it("ignores a due outside the cycle, a bad cycle, and a single dashboard", () => {
    expect(planCycle(p("kiosk&cycle=60&due=99999"), ids, "a", 120, 1000)!.leftS).toBe(60);
    expect(planCycle(p("kiosk&cycle=2"), ids, "a", 10, 1000)).toBeNull();
    expect(planCycle(p("kiosk&cycle=30"), ["a"], "a", 10, 1000)).toBeNull();
  });
});
