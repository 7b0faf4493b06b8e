import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// After a burst of heavy answers the logger gives back the memory they used (issue 24: "back
// within +20 MB of the start after they stop"). The answers stream, so what they leave is not
// held by anyone: it is V8 keeping the pages its collections freed in a pool for reuse, and the
// buffers they backed waiting for a full collection. V8 returns both only in a memory-reducing
// collection, which its memory reducer starts when the process goes idle — and a logger never
// does (acquisition allocates every few ms): bench/heavy-readers.ts measured the pool at 19–20 MB
// and the process at +24…51 MB, 30 s after the readers stopped. So once the last heavy answer
// has been over for SETTLE_AFTER_MS, the logger asks for that collection itself, at most once per
// MIN_GAP_MS (a pause of a few tens of ms per burst, not per answer).

/** Quiet after the last heavy answer before the collection: a client's next request often follows at once. */
export const SETTLE_AFTER_MS = 2000;
/** At most one collection per this long, however often heavy answers start and end. */
export const MIN_GAP_MS = 30_000;

type Gc = (options: { type: "major"; execution: "async"; flavor: "last-resort" } | { type: "minor" }) => Promise<void> | void;

/** V8's gc() (with --expose-gc, which logger/flags.ts sets; exposed here when the process started without it). */
export function collector(): Gc {
  const exposed = (globalThis as { gc?: Gc }).gc;
  if (exposed) return exposed;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as Gc;
}

export class MemorySettler {
  private readonly afterMs: number;
  private readonly gapMs: number;
  private gc: Gc | null;
  private timer: NodeJS.Timeout | null = null;
  private used = false;
  private last = Number.NEGATIVE_INFINITY;

  constructor(o: { afterMs?: number; gapMs?: number; gc?: Gc } = {}) {
    this.afterMs = o.afterMs ?? SETTLE_AFTER_MS;
    this.gapMs = o.gapMs ?? MIN_GAP_MS;
    this.gc = o.gc ?? null;
  }

  /** A heavy answer started: no collection while any runs. */
  busy(): void {
    this.used = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The last heavy answer ended: collect once it has stayed so for afterMs (and the gap allows). */
  idle(): void {
    if (!this.used || this.timer) return;
    const wait = Math.max(this.afterMs, this.last + this.gapMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.used = false;
      this.last = performance.now();
      // Async: V8 runs it as a task of its own, not inside this timer's turn.
      this.gc ??= collector();
      void this.gc({ type: "major", execution: "async", flavor: "last-resort" });
    }, wait);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Upload bytes between two collections of the young generation (bodyRead). */
export const SWEEP_BYTES = 4 * 1024 * 1024;
let unswept = 0;

/**
 * Counts the bytes a long upload's handler has read; every SWEEP_BYTES it collects the young
 * generation (~1 ms). The socket buffers a request body arrives in are given back only when V8
 * collects the young generation — which a handler that allocates little fills slowly (a UDBF
 * import, whose rows are packed in another thread) — or once 64 MB of them have piled up outside
 * its heap: bench/udbf.ts saw the logger grow by 65–90 MB over a 500 MB import.
 */
export function bodyRead(bytes: number): void {
  unswept += bytes;
  if (unswept < SWEEP_BYTES) return;
  unswept = 0;
  void collector()({ type: "minor" });
}
