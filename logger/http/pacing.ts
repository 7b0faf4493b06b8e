import type { ServerResponse } from "node:http";

// Long answers (a CSV export, a million buckets, a spread over twenty million samples) are
// computed in slices; between slices other requests get the event loop once this much time
// has gone by, so no request holds it for long (the target is under ~50 ms).
const BUDGET_MS = 10;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** pace(): gives the event loop a turn when this request has had it for BUDGET_MS. */
export function pacer(budgetMs = BUDGET_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await turn();
    since = performance.now();
  };
}

/** A client that takes nothing of a long answer for this long is cut off (it would hold its place for good). */
export const DRAIN_IDLE_MS = 30_000;

/**
 * Waits until the socket took the last write: true then; false when the client went away or took
 * nothing for idleMs (the answer is then cut off: destroyed). No listener is left behind.
 */
export function drainedWithin(res: ServerResponse, idleMs = DRAIN_IDLE_MS): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((done) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      res.off("drain", onDrain);
      res.off("close", onClose);
      if (!ok) res.destroy();
      done(ok);
    };
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), idleMs);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}
