import type { ServerResponse } from "node:http";
import { AnswerStream } from "../../http/answer-stream.ts";
import type { Work } from "../../http/answer-stream.ts";
import { BLOCK_SAMPLES } from "../../store/series/blocks.ts";
import { trackColumn } from "../../store/series/query.ts";
import type { Plan, Stat } from "../../store/series/query.ts";
import type { Part, SeriesStore } from "../../store/series/store.ts";

// The JSON answer of /…/data (the contract's `[{TimeSeries}]`), written as it is computed: the
// columns are column-major (`Values: [[…] per variable]`, then Loggia's Min and Max beside them),
// so each variable's column goes out slice by slice, and Min and Max are computed again rather
// than kept (a million buckets of ten variables kept would be the 200 MB this avoids). The text
// is exactly JSON.stringify of the answer object.

/**
 * Buckets computed at a time: a slice of a few ms (rollup summaries), one raw block when w = 1.
 * Small enough that a slice's text stays a regular heap string: large ones live in V8's large-object
 * space until a full collection, and the pages they freed stayed in V8's pool (+30 MB after load).
 */
const BUCKET_SLICE = 1000;
const RAW_SLICE = BLOCK_SAMPLES;
/** Timestamps written at a time. */
const TIME_SLICE = 8192;

export type SeriesHead = {
  Type: "equidistant" | "absolute";
  Format: "json";
  Unit: "ms";
  Start: number;
  AbsoluteStart: number;
  Delta: number;
  End: number;
  Size: number;
  MeasurementId: string;
  Updating: boolean;
};

export type SeriesColumn = { parts: Part[] };
type Round = <T extends number | null>(values: T[]) => T[];

export async function writeSeriesJson(
  res: ServerResponse,
  o: { head: SeriesHead; plan: Plan; columns: SeriesColumn[]; store: SeriesStore; round: Round; work: Work; idleMs: number; timestamps: boolean; variables?: unknown[] },
): Promise<void> {
  const { plan, columns, store, round, work } = o;
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  const out = new AnswerStream(res, o.idleMs);
  const head = JSON.stringify(o.head);
  await out.put(`{"Success":true,"Data":[{"TimeSeries":${head.slice(0, -1)}`);
  const slice = plan.w === 1 ? RAW_SLICE : BUCKET_SLICE;
  // Raw answers have one value per bucket: no Min and Max.
  const fields: [string, Stat][] = plan.bucketed ? [["Values", "mean"], ["Min", "min"], ["Max", "max"]] : [["Values", "mean"]];
  for (const [name, which] of fields) {
    if (!(await out.put(`,"${name}":[`))) return;
    for (let i = 0; i < columns.length; i++) {
      if (!(await out.put(i ? ",[" : "["))) return;
      const parts = columns[i]!.parts;
      for (let k0 = 0; k0 < plan.size; k0 += slice) {
        const k1 = Math.min(plan.size, k0 + slice);
        // A fresh reader per slice: its cache holds only this slice's rows (on PostgreSQL fetched first).
        const text = await work(() =>
          store.read(
            (rows) => {
              const column = trackColumn(rows, parts, plan, k0, k1, which);
              return rows.missed() ? "" : JSON.stringify(round(column)).slice(1, -1);
            },
            { transient: true },
          ),
        );
        if (!(await out.put(k0 ? `,${text}` : text))) return;
      }
      if (!(await out.put("]"))) return;
    }
    if (!(await out.put("]"))) return;
  }
  if (o.timestamps) {
    if (!(await out.put(`,"Timestamps":[`))) return;
    for (let k0 = 0; k0 < plan.size; k0 += TIME_SLICE) {
      const k1 = Math.min(plan.size, k0 + TIME_SLICE);
      const text = await work(() => Array.from({ length: k1 - k0 }, (_, j) => ((plan.g0 + (k0 + j) * plan.w) * plan.periodUs) / 1000).join(","));
      if (!(await out.put(k0 ? `,${text}` : text))) return;
    }
    if (!(await out.put("]"))) return;
  }
  if (o.variables) await out.put(`,"Variables":${JSON.stringify(o.variables)}`);
  await out.put(`}}],"ReturnState":{"Value":0,"Description":"OK"}}`);
  out.end();
}
