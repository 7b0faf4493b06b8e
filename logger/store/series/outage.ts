// What the series store keeps in memory while its database does not take writes (issue 24 §7,
// docs/storage.md "Store outages"). Rows that could not be written stay queued and are written
// again; this bounds them by size and by age, says how full the buffer is, and says what was lost.
//
// Past the bound new samples are not kept (the newest are dropped, not the oldest): everything
// acquired before the buffer filled stays, raw samples and rollups alike, and the loss is one
// stretch of time — from the moment the buffer was full to the first write that succeeds — which
// every reader sees as a gap (null) at every resolution. Dropping the oldest queued blocks instead
// would leave their rollups behind (a chart would show data that a raw read calls a gap).

export type OutageLimits = {
  /** Bytes of unsaved rows (raw blocks and rollup chunks) kept at most. */
  maxBytes: number;
  /** Age of the oldest unsaved sample kept at most (ms since the last write that succeeded). */
  maxMs: number;
};

export const OUTAGE_LIMITS: OutageLimits = { maxBytes: 256 * 1024 * 1024, maxMs: 3_600_000 };

/** A write still running after this long counts as an outage (a server that stopped answering). */
export const HUNG_WRITE_MS = 10_000;

/** Samples not kept: sample times (epoch ms) of the first and the last, and how many; over all sources and per source. */
export type SourceLoss = { SourceId: string; From: number; To: number; Samples: number };
export type Loss = { From: number; To: number; Samples: number; Sources: SourceLoss[] };

/** The store's state as Project State shows it (ProjectAPI.GetState's `Store`). */
export type OutageStatus = {
  Engine: "sqlite" | "postgres";
  /** Writes go through (false: the database is failing or not answering). */
  Writing: boolean;
  /** Since when writes fail (epoch ms), null while writing. */
  FailingSince: number | null;
  UnsavedBytes: number;
  /** Age of the oldest unsaved sample, seconds (0 when nothing waits). */
  UnsavedSec: number;
  LimitBytes: number;
  LimitSec: number;
  /** How full the buffer is: the larger of the two shares, 0–1. */
  Fill: number;
  /** The buffer is full: new samples are not kept (since FullSince). */
  Full: boolean;
  FullSince: number | null;
  /** Samples not kept in the current outage so far. */
  DroppedSamples: number;
  /** What the last outage that dropped samples cost: sample times (epoch ms) of the first and last sample not kept. */
  LastLoss: Loss | null;
};

type Emit = (level: "warn" | "info", message: string) => void;

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const span = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);
const iso = (ms: number) => new Date(ms).toISOString();

export class OutageBuffer {
  limits: OutageLimits;
  private readonly emit: Emit;
  private readonly now: () => number;
  /** When the last write succeeded (or the store opened). */
  private lastStoredAt: number;
  private failingSince: number | null = null;
  private fullSince: number | null = null;
  private dropped = 0;
  private droppedFrom = Number.POSITIVE_INFINITY;
  private droppedTo = Number.NEGATIVE_INFINITY;
  private readonly bySource = new Map<string, SourceLoss>();
  private lastLoss: Loss | null = null;
  /** Tenths of the buffer already reported in this outage. */
  private reported = 0;

  constructor(emit: Emit, limits: Partial<OutageLimits> = {}, now: () => number = Date.now) {
    this.emit = emit;
    this.limits = { ...OUTAGE_LIMITS, ...limits };
    this.now = now;
    this.lastStoredAt = now();
  }

  private describeLimits(): string {
    return `${mb(this.limits.maxBytes)} or ${span(this.limits.maxMs)} of samples, whichever comes first`;
  }

  /** A write failed (or has not come back for HUNG_WRITE_MS): the outage starts, once. */
  failing(reason: string): void {
    if (this.failingSince !== null) return;
    this.failingSince = this.now();
    this.emit("warn", `Series store: writes fail (${reason}); samples are kept in memory, up to ${this.describeLimits()}, and written when the database is back`);
  }

  /** A write succeeded: everything queued before it is stored. Ends an outage and states its loss. */
  stored(): void {
    this.lastStoredAt = this.now();
    if (this.failingSince === null) return;
    const lasted = this.lastStoredAt - this.failingSince;
    this.failingSince = null;
    this.reported = 0;
    if (this.dropped === 0) {
      this.emit("info", `Series store: writing again after ${span(lasted)}; no sample was lost`);
      return;
    }
    this.lastLoss = { From: this.droppedFrom, To: this.droppedTo, Samples: this.dropped, Sources: [...this.bySource.values()] };
    this.emit("warn", `Series store: writing again after ${span(lasted)}; the samples acquired from ${iso(this.droppedFrom)} to ${iso(this.droppedTo)} were not kept (${this.dropped} samples, a gap in the history): the outage buffer was full`);
    this.fullSince = null;
    this.dropped = 0;
    this.droppedFrom = Number.POSITIVE_INFINITY;
    this.droppedTo = Number.NEGATIVE_INFINITY;
    this.bySource.clear();
  }

  /** Whether new samples may be queued now: not once the buffer is full (decided by check(), between batches). */
  accepts(): boolean {
    return this.fullSince === null;
  }

  /** Samples of a source not kept (sample times of the first and last, epoch ms). */
  drop(sourceId: string, samples: number, fromMs: number, toMs: number): void {
    this.dropped += samples;
    this.droppedFrom = Math.min(this.droppedFrom, fromMs);
    this.droppedTo = Math.max(this.droppedTo, toMs);
    const src = this.bySource.get(sourceId);
    if (!src) this.bySource.set(sourceId, { SourceId: sourceId, From: fromMs, To: toMs, Samples: samples });
    else {
      src.From = Math.min(src.From, fromMs);
      src.To = Math.max(src.To, toMs);
      src.Samples += samples;
    }
  }

  /**
   * Called with every flush (0.5 s; never in the middle of an acquisition batch, so every variable
   * of a batch is kept or not alike): reports the fill level in the trace at each further tenth,
   * and once a bound is reached the buffer is full.
   */
  check(unsavedBytes: number): void {
    if (this.failingSince === null || this.fullSince !== null) return;
    const age = this.now() - this.lastStoredAt;
    if (unsavedBytes >= this.limits.maxBytes || age >= this.limits.maxMs) {
      this.fullSince = this.now();
      this.emit("warn", `Series store: the outage buffer is full (${mb(unsavedBytes)} unsaved, the oldest ${span(age)} old; the bound is ${this.describeLimits()}): new samples are not kept until the database takes writes again`);
      return;
    }
    const tenth = Math.min(9, Math.floor(this.fill(unsavedBytes) * 10));
    if (tenth <= this.reported) return;
    this.reported = tenth;
    this.emit("warn", `Series store: writes fail since ${span(this.now() - this.failingSince)}; ${mb(unsavedBytes)} unsaved in memory, the oldest ${span(age)} old: ${tenth * 10} % of the outage buffer (${this.describeLimits()})`);
  }

  private fill(unsavedBytes: number): number {
    const age = unsavedBytes > 0 ? this.now() - this.lastStoredAt : 0;
    return Math.min(1, Math.max(unsavedBytes / this.limits.maxBytes, age / this.limits.maxMs));
  }

  status(engine: OutageStatus["Engine"], unsavedBytes: number): OutageStatus {
    const now = this.now();
    return {
      Engine: engine,
      Writing: this.failingSince === null,
      FailingSince: this.failingSince,
      UnsavedBytes: unsavedBytes,
      UnsavedSec: unsavedBytes > 0 ? Math.max(0, Math.round((now - this.lastStoredAt) / 1000)) : 0,
      LimitBytes: this.limits.maxBytes,
      LimitSec: Math.round(this.limits.maxMs / 1000),
      Fill: this.fullSince !== null ? 1 : this.fill(unsavedBytes),
      Full: this.fullSince !== null,
      FullSince: this.fullSince,
      DroppedSamples: this.dropped,
      LastLoss: this.lastLoss,
    };
  }
}
