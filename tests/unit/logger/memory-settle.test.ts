import { getHeapStatistics } from "node:v8";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeavyGate } from "../../../logger/http/heavy.ts";
import { collector, MemorySettler } from "../../../logger/http/memory-settle.ts";

// After a burst of heavy answers the logger asks V8 for a memory-reducing collection once the
// last has been over for a while — never while one runs, at most once per gap.

describe("MemorySettler with the heavy gate", () => {
  let calls: unknown[];
  let settler: MemorySettler;
  let gate: HeavyGate;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    calls = [];
    settler = new MemorySettler({ afterMs: 2000, gapMs: 30_000, gc: (o) => void calls.push(o) });
    gate = new HeavyGate({ perUser: 2, total: 4 }, settler);
  });
  afterEach(() => {
    settler.close();
    vi.useRealTimers();
  });

  it("collects once, afterMs after the last of several answers ended, as a last-resort major collection", async () => {
    const a = await gate.admit("user:1");
    const b = await gate.admit("user:2");
    a();
    vi.advanceTimersByTime(5000);
    expect(calls).toHaveLength(0); // b still runs
    b();
    vi.advanceTimersByTime(1999);
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([{ type: "major", execution: "async", flavor: "last-resort" }]);
    vi.advanceTimersByTime(60_000);
    expect(calls).toHaveLength(1); // nothing new happened
  });

  it("a new answer within afterMs puts the collection off until it too has ended", async () => {
    (await gate.admit("user:1"))();
    vi.advanceTimersByTime(1500);
    const again = await gate.admit("user:1");
    vi.advanceTimersByTime(5000);
    expect(calls).toHaveLength(0);
    again();
    vi.advanceTimersByTime(2000);
    expect(calls).toHaveLength(1);
  });

  it("bursts closer than gapMs share one collection per gap", async () => {
    (await gate.admit("user:1"))();
    vi.advanceTimersByTime(2000);
    expect(calls).toHaveLength(1);
    (await gate.admit("user:1"))();
    vi.advanceTimersByTime(2000);
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(27_999);
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(1); // 30 s after the first collection
    expect(calls).toHaveLength(2);
  });

  it("no answer, no collection", () => {
    settler.idle();
    vi.advanceTimersByTime(120_000);
    expect(calls).toHaveLength(0);
  });
});

describe("the collector", () => {
  it("is V8's gc even without --expose-gc, and its last-resort collection gives freed heap back", () => {
    const gc = collector() as unknown as (o: object) => void;
    let held: number[][] | null = Array.from({ length: 400_000 }, (_, i) => [i, i + 1, i + 2]);
    const loaded = getHeapStatistics().total_heap_size;
    expect(held.length).toBe(400_000);
    held = null;
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
    // ~40 MB of arrays were live; the committed heap comes down by most of them.
    expect(loaded - getHeapStatistics().total_heap_size).toBeGreaterThan(20 * 1024 * 1024);
  });
});
