import type { DataSource } from "./config.ts";

// What every protocol driver implements (decision 0010). The SourceManager owns the grid, the
// store, live values and the counters; a driver only talks to its device and reports.

export type DriverEvents = {
  /** A value of config.Variables[index], taken at timeMs (epoch ms). */
  value(index: number, value: number, timeMs: number): void;
  /** Something unusable arrived (index null: not tied to one variable); counted, logged at most once a minute per source. */
  bad(index: number | null, reason: string): void;
  /**
   * The connection's state. OPC UA: "connected" only while the subscription is alive (keep-alives
   * arrive) — the manager holds the last values in every slot while connected (sample-and-hold).
   */
  state(state: "connecting" | "connected" | "error", error?: string): void;
  /** OPC UA with security: the SHA-256 fingerprint of the certificate the server presented (shown so the operator can decide to require it). */
  certificate?(fingerprint: string): void;
};

export interface Driver {
  /** Connects; the driver itself never throws to the caller and never crashes the process. */
  start(): void;
  /** Writes an output (config.Variables[index]); rejects with a readable Error. */
  write(index: number, value: number): Promise<void>;
  /** Disconnects, clears timers. */
  stop(): Promise<void>;
}

export type DriverFactory = (config: DataSource, events: DriverEvents, opts: { now(): number }) => Driver;

/** Reconnect back-off: 1 s doubling to 30 s (reset after a successful connection). */
export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
export const nextBackoff = (ms: number) => Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_MIN_MS, ms * 2));

/** Rejects with `message` if `p` has not settled within `ms`. */
export function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}
