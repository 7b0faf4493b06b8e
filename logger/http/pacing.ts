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

/** The socket took the last write, or the client went away; no listener is left behind. */
export function drained(res: ServerResponse): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      res.off("drain", finish);
      res.off("close", finish);
      done();
    };
    res.on("drain", finish);
    res.on("close", finish);
  });
}

const SLICE = 8192;

/**
 * JSON.stringify(value) written piece by piece: large arrays in slices, with a turn for other
 * requests between them and a wait while the socket is full. Same text as JSON.stringify for
 * plain data (objects, arrays, numbers, strings, booleans, null).
 */
export async function writeJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): Promise<void> {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  const pace = pacer();
  let buffer = "";
  const flush = async () => {
    if (res.destroyed) throw new Error("client gone");
    if (!res.write(buffer)) await drained(res);
    buffer = "";
    await pace();
  };
  const emit = async (v: unknown): Promise<void> => {
    if (Array.isArray(v)) {
      buffer += "[";
      if (v.every((x) => x === null || typeof x !== "object")) {
        // An array of plain values: stringified a slice at a time.
        for (let i = 0; i < v.length; i += SLICE) {
          buffer += (i ? "," : "") + JSON.stringify(v.slice(i, i + SLICE)).slice(1, -1);
          if (buffer.length > 64 * 1024) await flush();
        }
      } else {
        for (let i = 0; i < v.length; i++) {
          if (i) buffer += ",";
          await emit(v[i] === undefined ? null : v[i]);
        }
      }
      buffer += "]";
    } else if (v !== null && typeof v === "object" && (v as object).constructor === Object) {
      buffer += "{";
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) continue;
        buffer += `${first ? "" : ","}${JSON.stringify(k)}:`;
        first = false;
        await emit(x);
      }
      buffer += "}";
    } else buffer += JSON.stringify(v) ?? "null";
  };
  try {
    await emit(value);
    res.end(buffer);
  } catch {
    // The client went away: nothing left to answer.
    res.destroy();
  }
}
