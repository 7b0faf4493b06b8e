import type { RestRequest } from "../../http/rest.ts";
import { drainedWithin } from "../../http/pacing.ts";
import type { Work } from "../../http/answer-stream.ts";
import { BLOCK_SAMPLES, TOP } from "../../store/series/blocks.ts";
import type { Plan } from "../../store/series/query.ts";
import type { RowReader } from "../../store/series/ranges.ts";
import { summarize } from "../../store/series/ranges.ts";
import { emptySummary } from "../../store/series/rollups.ts";
import type { Part, SeriesVariable } from "../../store/series/store.ts";
import type { VarSeries } from "../../store/series/writer.ts";
import { DIRECTION, TYPE, TYPE_OF_FORMAT } from "../../udbf/format.ts";
import type { TypeCode } from "../../udbf/format.ts";
import { udbfHeader } from "../../udbf/writer.ts";
import { UdbfSlice } from "../../udbf/slice.ts";
import type { UdbfVariable } from "../../udbf/writer.ts";
import { aggregateTrack } from "./csv.ts";
import { sourceVariables } from "./describe.ts";

// `Format: "udbf"` of POST /{buffer|history}/data (docs/logger-api.md, "UDBF"): the selection as
// a UDBF 1.07 file, streamed slice by slice with back-pressure like the CSV answer, so a file of
// any size costs the logger a slice's buffer. Raw rows carry each sample's own time; resampled
// ones (Points or Interval) the start of their bucket, as the JSON answer's Start + k × Delta.

export type UdbfColumn = { v: SeriesVariable; parts: Part[]; vs: VarSeries | null; periodUs: number };
export type Aggregate = "mean" | "min" | "max" | "last";

/**
 * The type each variable is written as. Raw: FLOAT as f32 (bit for bit), DOUBLE as f64 (the
 * stored float32, widened exactly); BOOL and integers in their own type when every row of the
 * file has a sample of theirs (the store keeps them as float32, which holds them: written back
 * they are the values acquired), else as f32, because UDBF has no "no value" but a float's NaN.
 * Resampled: means as f64 (a mean of float32 samples is no float32), min, max and last as f32.
 */
function columnTypes(r: RestRequest, plan: Plan, columns: readonly UdbfColumn[], aggregate: Aggregate, dense: readonly boolean[]): UdbfVariable[] {
  const facts = new Map<string, ReturnType<typeof sourceVariables>[number]>();
  for (const sid of new Set(columns.map((c) => c.v.SourceId))) {
    const src = r.ctx.data.store.source(sid);
    if (src) for (const f of sourceVariables(r.ctx.data, src)) facts.set(f.Id, f);
  }
  return columns.map((c, i) => {
    const f = facts.get(c.v.Id);
    const format = f?.DataFormat ?? "FLOAT";
    let type: TypeCode = TYPE.f32;
    if (plan.bucketed) type = aggregate === "mean" ? TYPE.f64 : TYPE.f32;
    else if (format === "DOUBLE") type = TYPE.f64;
    else if (format !== "FLOAT" && dense[i]) type = TYPE_OF_FORMAT[format] ?? TYPE.f32;
    return { name: c.v.Name, unit: c.v.Unit, direction: DIRECTION[f?.Direction ?? "I"] ?? 0, type, precision: f?.Precision ?? 3 };
  });
}

/** Bytes of rows per slice: a slice's buffer, what one answer costs the logger at most (plus a socket's worth). */
const SLICE_BYTES = 2 * 1024 * 1024;
/** Rows per slice of a resampled file (its values come from buckets, not blocks). */
const SLICE_ROWS = 4096;

export async function streamUdbf(r: RestRequest, plan: Plan, columns: readonly UdbfColumn[], aggregate: Aggregate, work: Work, idleMs: number): Promise<void> {
  const { res, ctx } = r;
  // Raw samples of the grid's own variables come straight from their blocks; others via buckets.
  const direct = columns.map((c) => c.vs !== null && !plan.bucketed && plan.w === 1 && c.periodUs === plan.periodUs);
  // Which columns have a sample on every row (decided once, from the rollups: a few reads).
  const dense = plan.bucketed
    ? columns.map(() => false)
    : await ctx.data.store.read((rows) =>
        columns.map((c, i) => {
          if (!direct[i]) return false;
          const s = emptySummary();
          summarize(rows, c.vs!, plan.g0, plan.g0 + plan.size, TOP, s);
          return s.count === plan.size;
        }),
      );
  const vars = columnTypes(r, plan, columns, aggregate, dense);
  const firstMs = (plan.g0 * plan.periodUs) / 1000;
  const header = udbfHeader(vars, 1e6 / (plan.w * plan.periodUs), firstMs);
  res.writeHead(200, {
    "Content-Type": "application/octet-stream",
    "Content-Disposition": 'attachment; filename="history.dat"',
    "Cache-Control": "no-store",
    // Loggia: what a client needs to count rows as the bytes arrive (the console's progress bar).
    "X-UDBF-Data-Offset": String(header.bytes.length),
    "X-UDBF-Row-Bytes": String(header.rowBytes),
  });
  res.write(header.bytes);
  const out = new UdbfSlice(header, vars.map((v) => v.type));
  // A row where every variable is a gap is left out (the next row's time says where data
  // resumes): only possible when no variable has a sample on every row.
  const track = !dense.some(Boolean);
  // Raw slices end on block boundaries, so each block is read and decoded once (the reader's
  // cache lasts one read): as many whole blocks as fit in SLICE_BYTES, at least one; a file
  // whose block of rows exceeds that (thousands of variables) takes rows up to SLICE_BYTES.
  const blockRows = BLOCK_SAMPLES * header.rowBytes;
  const aligned = direct.some(Boolean) && blockRows <= SLICE_BYTES * 2;
  const rowsPer = aligned ? BLOCK_SAMPLES * Math.max(1, Math.floor(SLICE_BYTES / blockRows)) : Math.max(1, Math.min(SLICE_ROWS, Math.floor(SLICE_BYTES / header.rowBytes)));
  // The write of each ring slot (UdbfSlice.begin): settled once the socket has taken its bytes.
  const sent: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  for (let k0 = 0, slot: 0 | 1 = 0; k0 < plan.size; slot = slot === 0 ? 1 : 0) {
    if (res.destroyed) return;
    const k1 = aligned ? Math.min(plan.size, Math.floor((plan.g0 + k0) / BLOCK_SAMPLES) * BLOCK_SAMPLES + rowsPer - plan.g0) : Math.min(plan.size, k0 + rowsPer);
    await sent[slot];
    // The slice's rows in one read (on PostgreSQL it may run twice: fetch, then fill; begin()
    // starts over, no other side effects). Transient: the bytes are copies of the blocks read.
    const bytes = await work(() => ctx.data.store.read((rows) => sliceRows(rows, out, slot, plan, columns, direct, aggregate, track, k0, k1), { transient: true }));
    k0 = k1;
    if (!bytes.length) continue;
    let ok = true;
    sent[slot] = new Promise<void>((done) => {
      // Settled by the write's callback, or when the answer is closed (no callback may come then).
      res.once("close", done);
      ok = res.write(bytes, () => {
        res.off("close", done);
        done();
      });
    });
    if (!ok && !(await drainedWithin(res, idleMs))) return;
  }
  res.end();
}

function sliceRows(rows: RowReader, out: UdbfSlice, slot: 0 | 1, plan: Plan, columns: readonly UdbfColumn[], direct: readonly boolean[], aggregate: Aggregate, track: boolean, k0: number, k1: number): Buffer {
  const n = k1 - k0;
  out.begin(slot, n, track);
  out.times((plan.g0 + k0 * plan.w) * plan.periodUs, plan.w * plan.periodUs);
  columns.forEach((c, i) => {
    if (!direct[i]) {
      const values = aggregateTrack(rows, c.parts, plan, k0, k1, aggregate);
      out.put(i, 0, values.map((v) => v ?? Number.NaN), 0, n);
      return;
    }
    // Block by block: the samples the block holds, NaN where it or the series has none.
    const vs = c.vs!;
    for (let k = k0; k < k1; ) {
      const g = plan.g0 + k;
      const bi = Math.floor(g / BLOCK_SAMPLES);
      const next = Math.min(k1, (bi + 1) * BLOCK_SAMPLES - plan.g0);
      const block = g >= 0 && g < vs.end ? rows.block(vs, bi) : null;
      const from = g - bi * BLOCK_SAMPLES;
      const to = block ? Math.max(from, Math.min(from + (next - k), block.length, vs.end - bi * BLOCK_SAMPLES)) : from;
      if (to > from) out.put(i, k - k0, block!, from, to);
      out.gap(i, k - k0 + (to - from), next - k - (to - from));
      k = next;
    }
  });
  return out.finish();
}
