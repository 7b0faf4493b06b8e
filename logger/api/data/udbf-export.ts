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
import { UdbfRows, udbfHeader } from "../../udbf/writer.ts";
import type { UdbfVariable } from "../../udbf/writer.ts";
import { aggregateTrack } from "./csv.ts";
import { sourceVariables } from "./describe.ts";

// `Format: "udbf"` of POST /{buffer|history}/data (docs/logger-api.md, "UDBF"): the selection as
// a UDBF 1.07 file, streamed slice by slice with back-pressure like the CSV answer, so a file of
// any size costs the logger a slice's buffer. Raw rows carry each sample's own time; resampled
// ones (Points or Interval) the start of their bucket, as the JSON answer's Start + k × Delta.

const SLICE = 4096;

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
  const out = new UdbfRows(header, vars.map((v) => v.type), SLICE);
  for (let k0 = 0; k0 < plan.size; k0 += SLICE) {
    if (res.destroyed) return;
    const k1 = Math.min(plan.size, k0 + SLICE);
    // The slice's columns in one read (on PostgreSQL it may run twice: fetch, then fill; no side effects).
    const cols = await work(() => ctx.data.store.read((rows) => sliceColumns(rows, plan, columns, direct, aggregate, k0, k1)));
    out.reserve(k1 - k0);
    for (let k = 0; k < k1 - k0; k++) {
      // A row where every variable is a gap is left out: the next row's time says where data resumes.
      let any = false;
      for (const col of cols) if (col[k] === col[k]) any = true;
      if (!any) continue;
      out.time((plan.g0 + (k0 + k) * plan.w) * plan.periodUs);
      for (let i = 0; i < cols.length; i++) out.value(i, cols[i]![k]!);
    }
    const bytes = out.take();
    // Copied: the encoder reuses its buffer. A client that takes nothing for idleMs is cut off.
    if (bytes.length && !res.write(Buffer.from(bytes)) && !(await drainedWithin(res, idleMs))) return;
  }
  res.end();
}

function sliceColumns(rows: RowReader, plan: Plan, columns: readonly UdbfColumn[], direct: readonly boolean[], aggregate: Aggregate, k0: number, k1: number): Float64Array[] {
  return columns.map((c, i) => {
    const out = new Float64Array(k1 - k0).fill(Number.NaN);
    if (direct[i]) {
      const vs = c.vs!;
      let b = -1;
      let block: Float32Array | null = null;
      for (let k = k0; k < k1; k++) {
        const g = plan.g0 + k;
        if (g < 0 || g >= vs.end) continue;
        const bi = Math.floor(g / BLOCK_SAMPLES);
        if (bi !== b) (b = bi), (block = rows.block(vs, bi));
        if (block && g - bi * BLOCK_SAMPLES < block.length) out[k - k0] = block[g - bi * BLOCK_SAMPLES]!;
      }
      return out;
    }
    const values = aggregateTrack(rows, c.parts, plan, k0, k1, aggregate);
    for (let k = 0; k < values.length; k++) if (values[k] !== null) out[k] = values[k]!;
    return out;
  });
}
