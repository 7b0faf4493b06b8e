import { useSyncExternalStore } from "react";

// Whether this browser reaches the console (issue 26 §1). Fed by the router's data requests
// (dataGuard.ts), the alarm feed's poll and the live streams; read by the shell's strip and the
// kiosk's badge, which lay "Reconnecting… (last update hh:mm:ss)" over the last picture instead
// of an error page. Browser-only state: the server always renders "connected".

export interface Connection {
  /** The last request failed for the network (or a proxy without the console behind it), or the console said the logger is away. */
  reconnecting: boolean;
  cause: "network" | "logger" | null;
  /** When the console last answered (epoch ms; 0 before any answer in this browser). */
  lastOkAt: number;
}

const SERVER: Connection = { reconnecting: false, cause: null, lastOkAt: 0 };
// In the browser the page itself is the first answer.
let state: Connection = typeof window === "undefined" ? SERVER : { ...SERVER, lastOkAt: Date.now() };
const listeners = new Set<() => void>();
const waiting = new Set<() => void>();

function set(next: Connection) {
  if (next.reconnecting === state.reconnecting && next.cause === state.cause && next.lastOkAt === state.lastOkAt) return;
  state = next;
  for (const l of listeners) l();
}

/** The console answered. */
export function connectionOk(at = Date.now()): void {
  const back = state.reconnecting;
  // Listeners hear about the time only once a second: a stream's every event must not re-render the shell.
  if (!back && at - state.lastOkAt < 1000) return;
  set({ reconnecting: false, cause: null, lastOkAt: at });
  if (back) for (const w of [...waiting]) w();
}

/** A request failed for the network, or the logger is away: the page says it is reconnecting. */
export function connectionLost(cause: "network" | "logger" = "network"): void {
  set({ ...state, reconnecting: true, cause });
}

export function connectionState(): Connection {
  return state;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useConnection(): Connection {
  return useSyncExternalStore(subscribe, connectionState, () => SERVER);
}

/** Retries after a failure: 1 s, 2 s, then every 3 s — the page is back within 5 s of the network. */
export function retryDelayMs(attempt: number): number {
  return Math.min(3000, 1000 * (attempt + 1));
}

/**
 * Resolves after the back-off for `attempt`, or at once when the browser says it is online again
 * or another request got through; rejects when `signal` aborts (the navigation was abandoned).
 */
export function waitToRetry(attempt: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const cleanup = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      signal?.removeEventListener("abort", abort);
      waiting.delete(done);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const abort = () => {
      cleanup();
      reject(signal!.reason);
    };
    const timer = setTimeout(done, retryDelayMs(attempt));
    window.addEventListener("online", done);
    signal?.addEventListener("abort", abort, { once: true });
    waiting.add(done);
  });
}
