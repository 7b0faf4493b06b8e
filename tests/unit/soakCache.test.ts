import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedAnswer, cachedAnswerCount, forgetCachedAnswers } from "~/services/logger/cache.server";

// Issue 18: the logger-answer cache kept expired answers until 5000 had piled up; their keys name
// one request (a moving time range), so the soak's console heap grew by ~30 MB a minute. Expired
// answers now go on the next insert (at most a second later).
afterEach(() => {
  vi.useRealTimers();
  forgetCachedAnswers();
});

describe("logger answer cache under a soak", () => {
  it("drops expired answers instead of keeping them until the count limit", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    forgetCachedAnswers();
    for (let i = 0; i < 300; i++) await cachedAnswer(`history ${i}`, "r1", 10_000, async () => new Array(100).fill(i));
    expect(cachedAnswerCount()).toBe(300);
    vi.setSystemTime(1_000_000 + 10_001);
    await cachedAnswer("history next", "r1", 10_000, async () => [1]);
    expect(cachedAnswerCount()).toBe(1);
  });

  it("keeps answers that are still fresh, and serves them", async () => {
    vi.useFakeTimers({ now: 2_000_000 });
    forgetCachedAnswers();
    const load = vi.fn(async () => ["a"]);
    const first = await cachedAnswer("settings", "r1", 10_000, load);
    vi.setSystemTime(2_000_000 + 5_000);
    await cachedAnswer("other", "r1", 10_000, async () => ["b"]);
    expect(await cachedAnswer("settings", "r1", 10_000, load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cachedAnswerCount()).toBe(2);
  });
});
