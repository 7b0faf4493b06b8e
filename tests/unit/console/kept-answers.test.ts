import { beforeEach, describe, expect, it } from "vitest";
import { forgetKeptAnswers, keepAnswer, keptAnswer, keptTotals } from "~/services/logger/kept.server";

// Kept answers stand in while the logger is away; with screens' pages among them (Log Messages,
// a folder's list) the fresh reads' answers are bounded by size as well as by count.

const page = (n: number, chars: number) => ({ n, text: "x".repeat(chars) });

describe("kept answers", () => {
  beforeEach(() => forgetKeptAnswers());

  it("counts what it keeps, and a newer answer replaces the old one's size", () => {
    keepAnswer("a", page(1, 1000), Date.now(), true);
    keepAnswer("b", page(2, 500), Date.now(), true);
    const before = keptTotals();
    expect(before.answers).toBe(2);
    expect(before.chars).toBe(JSON.stringify(page(1, 1000)).length + JSON.stringify(page(2, 500)).length);
    keepAnswer("a", page(3, 10), Date.now(), true);
    expect(keptTotals().chars).toBe(JSON.stringify(page(3, 10)).length + JSON.stringify(page(2, 500)).length);
    expect(keptAnswer<{ n: number }>("a")?.value.n).toBe(3);
  });

  it("does not keep one measured answer over 8 MB, and forgets what it had under that key", () => {
    keepAnswer("big", page(1, 100), Date.now(), true);
    keepAnswer("big", page(2, 8 * 1024 * 1024 + 1), Date.now(), true);
    expect(keptAnswer("big")).toBeUndefined();
    expect(keptTotals()).toEqual({ answers: 0, chars: 0 });
  });

  it("stays under 128 MB of measured answers by forgetting the least recently kept first", () => {
    const chars = 4 * 1024 * 1024;
    for (let i = 0; i < 40; i++) keepAnswer(`k${i}`, page(i, chars), Date.now(), true);
    const { answers, chars: total } = keptTotals();
    expect(total).toBeLessThanOrEqual(128 * 1024 * 1024);
    expect(answers).toBeLessThan(40);
    expect(keptAnswer("k0")).toBeUndefined();
    expect(keptAnswer<{ n: number }>("k39")?.value.n).toBe(39);
  });

  it("does not measure cached answers (one object every session keeps): counted, not sized", () => {
    const shared = page(1, 9 * 1024 * 1024);
    keepAnswer("s1", shared);
    keepAnswer("s2", shared);
    expect(keptTotals()).toEqual({ answers: 2, chars: 0 });
    expect(keptAnswer("s2")?.value).toBe(shared);
  });

  it("gives nothing older than a day, and frees its size", () => {
    const t0 = Date.UTC(2026, 10, 30, 8);
    keepAnswer("old", page(1, 100), t0, true);
    expect(keptAnswer("old", t0 + 24 * 3600_000)).toBeDefined();
    expect(keptAnswer("old", t0 + 24 * 3600_000 + 1)).toBeUndefined();
    expect(keptTotals()).toEqual({ answers: 0, chars: 0 });
  });
});
