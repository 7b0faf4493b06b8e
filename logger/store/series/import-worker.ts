import { closeSync, openSync, readSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";
import { VarSeries } from "./writer.ts";

// The second core of a UDBF import (import.ts, writeRows): some columns of a columnar spool
// appended, packed and written to series.db here, on a connection of this thread's own, while
// the event loop's thread does the other columns. Only variables that hold no sample yet come
// here: their whole state is what this thread builds, and it goes back to the store (the
// fields of each VarSeries) once every row of them is written — until then the store still
// says they are empty, so no reader sees half an import.

export type ImportJob = {
  db: string;
  times: string;
  values: string;
  /** Rows of each batch of the spool, in order. */
  batches: number[];
  width: number;
  /** Column of the spool → the part it goes to. */
  columns: { c: number; key: number; periodUs: number; floor: number }[];
  pack: boolean;
  /** Values appended between transactions. */
  flushValues: number;
};

/** The fields of a VarSeries that its rows leave behind (structured-clone friendly). */
export type SeriesState = Pick<VarSeries, "end" | "first" | "blockIdx" | "raw" | "rawLen" | "rawDirty" | "chunkIdx" | "chunks" | "chunkDirty" | "pending" | "pendingIdx">;

export function stateOf(vs: VarSeries): SeriesState {
  const { end, first, blockIdx, raw, rawLen, rawDirty, chunkIdx, chunks, chunkDirty, pending, pendingIdx } = vs;
  return { end, first, blockIdx, raw, rawLen, rawDirty, chunkIdx, chunks, chunkDirty, pending, pendingIdx };
}

function readAll(fd: number, into: Uint8Array, position: number): void {
  for (let off = 0; off < into.length; ) {
    const n = readSync(fd, into, off, into.length - off, position + off);
    if (n === 0) throw new Error("Import spool file is shorter than expected");
    off += n;
  }
}

function run(job: ImportJob): SeriesState[] {
  const db = new DatabaseSync(job.db);
  db.exec("PRAGMA busy_timeout = 10000");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA cache_size = -2048");
  const put = db.prepare("INSERT OR REPLACE INTO series_rows (Id, Data) VALUES (?, ?)");
  let rows = new Map<bigint, Uint8Array>();
  const write = () => {
    if (!rows.size) return;
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const [id, data] of rows) put.run(id, data);
      db.exec("COMMIT");
    } catch (err) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw err;
    }
    rows = new Map();
  };
  const series = job.columns.map((col) => {
    const vs = new VarSeries(col.key, col.periodUs, (id, bytes) => rows.set(id, bytes), { pack: job.pack });
    vs.floor = col.floor;
    return vs;
  });
  const tfd = openSync(job.times, "r");
  const vfd = openSync(job.values, "r");
  try {
    const most = Math.max(...job.batches);
    const slots = new Float64Array(most);
    const values = new Float32Array(most);
    const runs: number[] = [];
    let tAt = 0;
    let vAt = 0;
    let unwritten = 0;
    for (const n of job.batches) {
      readAll(tfd, new Uint8Array(slots.buffer, 0, n * 8), tAt);
      runs.length = 0;
      for (let a = 0; a < n; ) {
        let b = a + 1;
        while (b < n && slots[b] === slots[b - 1]! + 1) b++;
        runs.push(a, b);
        a = b;
      }
      job.columns.forEach((col, j) => {
        readAll(vfd, new Uint8Array(values.buffer, 0, n * 4), vAt + col.c * n * 4);
        for (let r = 0; r < runs.length; r += 2) series[j]!.append(slots[runs[r]!]!, values.subarray(runs[r]!, runs[r + 1]!));
      });
      tAt += n * 8;
      vAt += n * job.width * 4;
      unwritten += n * job.columns.length;
      if (unwritten >= job.flushValues) {
        write();
        unwritten = 0;
      }
    }
    for (const vs of series) vs.flushPartial();
    write();
    return series.map(stateOf);
  } finally {
    closeSync(tfd);
    closeSync(vfd);
    db.close();
  }
}

if (parentPort && workerData?.importJob) {
  try {
    parentPort.postMessage({ states: run(workerData.importJob as ImportJob) });
  } catch (err) {
    parentPort.postMessage({ error: (err as Error).message });
  }
}
