import type { IncomingMessage, ServerResponse } from "node:http";
import type { Caller } from "../api/registry.ts";
import { RS, RpcError } from "./errors.ts";
import type { MemorySettler } from "./memory-settle.ts";
import { DRAIN_IDLE_MS } from "./pacing.ts";

// Heavy data requests (issue 24 §3): large JSON answers, CSV exports, statistics with a long raw
// pass. Two bounds, both in this module:
// * HeavyGate — how many may be open at once, per user and in all; more wait a little in a queue,
//   then get 429 with Retry-After. An open answer costs little memory (it streams, a slice at a
//   time), so the bound is about fairness: one user cannot take every turn.
// * HeavyLane — the CPU they share: their slices of work run one after another, at most
//   LANE_BUDGET_MS (5 ms) of them per turn of the event loop however many are open, so every
//   other request (a /revision, a dashboard's reads) waits for at most one such turn.

export type HeavyLimits = {
  /** Heavy answers one user may have open at once. */
  perUser: number;
  /** Heavy answers open at once over all users. */
  total: number;
  /** How long a request over the limit waits for a place before it is refused. */
  waitMs: number;
  /** Requests that may wait per user and in all; more are refused at once. */
  queuePerUser: number;
  queueTotal: number;
  /** The Retry-After of a refusal, in seconds. */
  retryAfterSec: number;
  /** A client that takes nothing of its answer for this long is cut off and its place freed. */
  idleMs: number;
};

export const HEAVY_LIMITS: HeavyLimits = { perUser: 2, total: 8, waitMs: 5000, queuePerUser: 4, queueTotal: 32, retryAfterSec: 5, idleMs: DRAIN_IDLE_MS };

/** A data answer of more values than this (buckets or rows × variables) is heavy. */
export const HEAVY_VALUES = 100_000;
/** Statistics whose pass over raw samples reads more than this many is heavy. */
export const HEAVY_RAW_SAMPLES = 1_000_000;

/** Per user, else (no-login mode: everyone is "anonymous") per client address. */
export function heavyKey(caller: Caller, req: IncomingMessage): string {
  return caller.userId !== null ? `user:${caller.userId}` : `addr:${req.socket.remoteAddress ?? "?"}`;
}

type Waiter = { key: string; grant: () => void; timer: NodeJS.Timeout };

export class HeavyGate {
  readonly limits: HeavyLimits;
  private readonly open = new Map<string, number>();
  private openTotal = 0;
  private readonly waiting: Waiter[] = [];
  /** Gives back the memory of a burst of heavy answers once the last has ended. */
  private readonly settler: MemorySettler | null;

  constructor(limits: Partial<HeavyLimits> = {}, settler: MemorySettler | null = null) {
    this.limits = { ...HEAVY_LIMITS, ...limits };
    this.settler = settler;
  }

  /** Heavy answers open now, and requests waiting for a place (tests, diagnostics). */
  stats(): { open: number; waiting: number } {
    return { open: this.openTotal, waiting: this.waiting.length };
  }

  /**
   * A place for one heavy answer of `key`: resolves to its release (call it once, when the answer
   * ended or the client went away), or throws 429 when none frees up within waitMs. A client
   * that goes away while it waits leaves the queue at once.
   */
  async admit(key: string, res?: ServerResponse): Promise<() => void> {
    if (!this.fits(key)) {
      const l = this.limits;
      const mine = this.waiting.filter((w) => w.key === key).length;
      if (mine >= l.queuePerUser || this.waiting.length >= l.queueTotal) throw this.busy();
      await new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          key,
          grant: resolve,
          timer: setTimeout(() => {
            this.unqueue(w);
            reject(this.busy());
          }, l.waitMs),
        };
        res?.once("close", () => {
          if (this.unqueue(w)) reject(this.busy());
        });
        this.waiting.push(w);
      });
    }
    this.take(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.give(key);
    };
  }

  private fits(key: string): boolean {
    return this.openTotal < this.limits.total && (this.open.get(key) ?? 0) < this.limits.perUser;
  }

  private take(key: string): void {
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    this.openTotal++;
    this.settler?.busy();
  }

  private give(key: string): void {
    const n = (this.open.get(key) ?? 1) - 1;
    if (n > 0) this.open.set(key, n);
    else this.open.delete(key);
    this.openTotal--;
    // The first waiter that fits now, in the order they came (another user's may pass one whose user is full).
    const i = this.waiting.findIndex((w) => this.fits(w.key));
    if (i < 0) {
      if (this.openTotal === 0) this.settler?.idle();
      return;
    }
    const [w] = this.waiting.splice(i, 1);
    clearTimeout(w!.timer);
    w!.grant();
  }

  private unqueue(w: Waiter): boolean {
    const i = this.waiting.indexOf(w);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    clearTimeout(w.timer);
    return true;
  }

  private busy(): RpcError {
    const l = this.limits;
    return new RpcError(
      429,
      RS.Busy,
      `Too many large data requests at once (at most ${l.perUser} per user and ${l.total} in all); try again in ${l.retryAfterSec} s`,
      { "Retry-After": String(l.retryAfterSec) },
    );
  }
}

/**
 * Work heavy answers may do per turn of the event loop, together. 5 ms rather than 10: an
 * operator's dashboard page waits for a few turns (its reads to the logger come in rounds).
 */
export const LANE_BUDGET_MS = 5;

/**
 * One lane for the CPU work of heavy answers: enter() before a slice of work, leave() after it.
 * Slices run one at a time; once LANE_BUDGET_MS of them ran in this turn of the event loop the
 * next waits for the next turn (setImmediate), after the I/O of every other request. Waiting for
 * a slow client (drain) happens outside the lane, so it holds no one up.
 */
export class HeavyLane {
  private readonly budgetMs: number;
  private busy = false;
  private used = 0;
  private started = 0;
  private readonly waiters: (() => void)[] = [];
  private tickArmed = false;

  constructor(budgetMs = LANE_BUDGET_MS) {
    this.budgetMs = budgetMs;
  }

  /** Resolves when this caller holds the lane. */
  enter(): Promise<void> {
    if (!this.busy && this.used < this.budgetMs) {
      this.hold();
      return Promise.resolve();
    }
    this.armTick();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  leave(): void {
    if (!this.busy) return;
    this.busy = false;
    this.used += performance.now() - this.started;
    this.armTick();
    // Still within this turn's budget: the next waiter goes on at once.
    if (this.used < this.budgetMs) this.handOver();
  }

  /** leave() and enter() again: the pace() of a long loop of work inside the lane. */
  async yield(): Promise<void> {
    this.leave();
    await this.enter();
  }

  /** Runs one slice of work in the lane. */
  async run<T>(work: () => T | Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  private hold(): void {
    this.busy = true;
    this.started = performance.now();
  }

  private handOver(): void {
    const next = this.waiters.shift();
    if (!next) return;
    this.hold();
    next();
  }

  // A new turn of the event loop: the budget starts afresh and the first waiter goes on.
  private armTick(): void {
    if (this.tickArmed) return;
    this.tickArmed = true;
    setImmediate(() => {
      this.tickArmed = false;
      this.used = 0;
      // A holder still at work (waiting for rows from PostgreSQL) hands over when it leaves.
      if (!this.busy) this.handOver();
    });
  }
}
