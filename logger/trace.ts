import { appendFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";

export const TRACE_LEVELS = ["debug", "info", "warn", "error"] as const;
export type TraceLevel = (typeof TRACE_LEVELS)[number];

export type TraceEntry = { Seq: number; Time: string; Level: TraceLevel; Component: string; Message: string };

const RING = 5000;
// One older file is kept beside the current one, so the trace never fills the disk.
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * The logger's own structured log: the latest entries in memory (what TraceAPI answers) and
 * every entry as a JSON line in DATA_DIR/trace.log.
 */
export class TraceLog {
  private readonly entries: TraceEntry[] = [];
  private seq = 0;
  private readonly file: string | null;
  private bytes = 0;

  constructor(dataDir: string | null) {
    this.file = dataDir ? join(dataDir, "trace.log") : null;
    if (this.file) {
      try {
        this.bytes = statSync(this.file).size;
      } catch {
        this.bytes = 0;
      }
    }
  }

  add(level: TraceLevel, component: string, message: string): void {
    const entry: TraceEntry = { Seq: ++this.seq, Time: new Date().toISOString(), Level: level, Component: component, Message: message };
    this.entries.push(entry);
    if (this.entries.length > RING) this.entries.splice(0, this.entries.length - RING);
    if (!this.file) return;
    const line = `${JSON.stringify(entry)}\n`;
    try {
      if (this.bytes + line.length > MAX_FILE_BYTES) {
        renameSync(this.file, `${this.file}.1`);
        this.bytes = 0;
      }
      appendFileSync(this.file, line);
      this.bytes += line.length;
    } catch {
      // The file is a copy for people with shell access; the in-memory trace stays complete.
    }
  }

  /** Entries at or above `level` after sequence number `since`, oldest first, the newest `limit`. */
  query(level: TraceLevel, since: number, limit: number): { Entries: TraceEntry[]; Last: number } {
    const min = TRACE_LEVELS.indexOf(level);
    const hits = this.entries.filter((e) => e.Seq > since && TRACE_LEVELS.indexOf(e.Level) >= min);
    return { Entries: hits.slice(-limit), Last: this.seq };
  }
}
