// Where the series store keeps its rows and registry: the embedded SQLite file (series.db,
// the default) or PostgreSQL (STORE_URL). The store itself — the write state of every variable
// in memory, rollups, queries — is the same for both; only persistence differs.
//
// The embedded engine answers at once, so reads stay synchronous there (as fast as before).
// PostgreSQL answers over the network: a read that needs a row it has not fetched gets MISS,
// and SeriesStore.read() fetches every missed row in one query and runs the reader again.
import type { Segment, SeriesSource, SeriesVariable } from "./store.ts";

/** A row not fetched yet (PostgreSQL): ask fetchRows. */
export const MISS = Symbol("miss");

export type StoredRow = { id: bigint; data: Uint8Array };
/** A row to write; tEndUs is the end of the time it covers (the partition key on PostgreSQL). */
export type WriteRow = { id: bigint; data: Uint8Array; level: number; tEndUs: number };
export type PartRow = { Key: number; VarId: string; Seq: number };
/**
 * How far background compaction got in one part and level: every row below index Upto is packed
 * or stays plain because packing would not make it smaller (series_packed; see compaction.ts).
 */
export type PackedMark = { Key: number; Level: number; Upto: number };
/** A plain row's packed form; replaces the stored row only while that still has oldLength bytes. */
export type RepackRow = { id: bigint; data: Uint8Array; oldLength: number; level: number; tEndUs: number };
export type Registry = {
  sources: SeriesSource[];
  segments: Array<Segment & { SourceId: string }>;
  parts: PartRow[];
  vars: SeriesVariable[];
};

export interface SeriesBackend {
  readonly engine: "sqlite" | "postgres";
  /** What the engine offers (TimescaleDB, partitions), for the start-up log line. */
  readonly describe: string;
  loadRegistry(): Registry | Promise<Registry>;
  // Registry changes: applied at once (SQLite) or queued in order ahead of the next row write
  // (PostgreSQL), so callers stay synchronous; the store's maps are the truth meanwhile.
  putSource(s: SeriesSource): void;
  setRetention(sourceId: string, retentionSec: number | null): void;
  renameVariable(key: number, name: string, unit: string): void;
  putVariable(v: SeriesVariable, seq: number): void;
  putPart(p: PartRow): void;
  putSegments(sourceId: string, list: readonly Segment[], periodUs: number): void;
  /** The row now if the engine can answer synchronously; undefined = not stored; MISS = fetch it. */
  rowNow(id: bigint): Uint8Array | undefined | typeof MISS;
  fetchRows(ids: readonly bigint[]): Promise<Map<bigint, Uint8Array>>;
  /** First (last = false) or last row with lo ≤ id ≤ hi. */
  edgeRow(lo: bigint, hi: bigint, last: boolean): StoredRow | undefined | Promise<StoredRow | undefined>;
  /** Rows in the order given (higher rollup levels first: see SeriesStore.flush). */
  write(rows: readonly WriteRow[]): void | Promise<void>;
  /** Deletes rows lo ≤ id ≤ hi; resolves to how many. */
  deleteRange(lo: bigint, hi: bigint): number | Promise<number>;
  /**
   * Removes whole stretches of raw blocks that end at or before horizonUs (PostgreSQL: drops
   * partitions / TimescaleDB chunks). Returns the raw blocks removed that way; the embedded
   * engine has no partitions and returns 0 (it deletes rows instead).
   */
  dropBefore(horizonUs: number): number | Promise<number>;
  sizeOnDisk(): number | Promise<number>;
  // ---- background compaction of plain rows (compaction.ts) ----
  loadPackedMarks(): PackedMark[] | Promise<PackedMark[]>;
  /** Plain rows (a multiple of 4 bytes long) with lo ≤ id ≤ hi, in id order. */
  plainRows(lo: bigint, hi: bigint): StoredRow[] | Promise<StoredRow[]>;
  /**
   * In one transaction: each row replaced by its packed form where the stored row still has
   * oldLength bytes (never re-creating a row that retention removed meanwhile), and the marks
   * saved. Resolves to the rows replaced.
   */
  repack(rows: readonly RepackRow[], marks: readonly PackedMark[]): number | Promise<number>;
  /** Resolves when every write handed over so far is stored. */
  settled(): Promise<void>;
  close(): void | Promise<void>;
}
