import type { ServerResponse } from "node:http";
import { z } from "zod";
import { invalidParam } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRequest, RestRoute } from "../../http/rest.ts";
import { ceilDiv, finestPeriod, planQuery, trackColumns } from "../../store/series/query.ts";
import type { Plan } from "../../store/series/query.ts";
import type { Part, SeriesVariable } from "../../store/series/store.ts";
import type { VarSeries } from "../../store/series/writer.ts";
import { epochMs, horizonMs, storedVariable } from "./common.ts";
import type { Area } from "./common.ts";
import { CsvSettings, RowBuffer, aggregateTrack, headerLines, timeCell } from "./csv.ts";
import { BLOCK_SAMPLES } from "../../store/series/blocks.ts";
import { timeFormatter } from "./timefmt.ts";

export const MAX_POINTS = 100_000;
/** Raw JSON answers above this many values are refused: ask for Points (principle 4). */
export const MAX_RAW_JSON = 1_000_000;
const CSV_SLICE = 2000;

const HistoryData = z.object({
  Start: epochMs,
  End: epochMs.default(0),
  Variables: z.array(z.object({ SID: z.string().min(1), VID: z.string().min(1) })).min(1).max(100),
  Points: z.number().int().min(1).max(MAX_POINTS).optional(),
  /** Resample at this bucket width (ms, a whole number of the fastest variable's periods) instead of Points. */
  Interval: z.number().positive().max(86_400_000 * 366).optional(),
  Type: z.enum(["equidistant", "absolute"]).default("equidistant"),
  Format: z.enum(["json", "csv"]).default("json"),
  TimeZone: z.string().max(64).optional(),
  /** With CSV: RFC 4180 output with these choices; absent = the plain format below. */
  CSVSettings: CsvSettings.optional(),
});

// parts: the variable's segments that overlap the range (more than one after a rate change);
// vs and periodUs: its only part, for the raw fast paths (null when it has several or none).
type Column = { v: SeriesVariable; parts: Part[]; vs: VarSeries | null; periodUs: number };

async function history(r: RestRequest, area: Area): Promise<void> {
  const p = await r.input(HistoryData);
  const data = r.ctx.data;
  const now = data.now();
  const end = p.End === 0 ? now : p.End;
  const start = p.Start < 0 ? end + p.Start : p.Start;
  if (!(end > start)) throw invalidParam("End must be after Start");
  if (start < 0) throw invalidParam("Start lies before 1970");

  const columns: Column[] = p.Variables.map(({ SID, VID }) => {
    const { v, src } = storedVariable(data, SID, VID);
    const horizon = horizonMs(data, src, area);
    if (end <= horizon) {
      throw invalidParam(`The range ends before ${new Date(horizon).toISOString()}, the oldest data ${area === "buffer" ? "the buffer" : "source " + src.Name} keeps`);
    }
    const parts = data.store.partsOf(v, start * 1000, end * 1000);
    const only = parts.length === 1 ? parts[0]! : null;
    return { v, parts, vs: only?.vs ?? null, periodUs: only?.periodUs ?? src.PeriodUs };
  });
  const tz = p.TimeZone ? timeFormatter(p.TimeZone) : null;
  if (p.TimeZone && !tz) throw invalidParam(`Unknown TimeZone ${p.TimeZone}`);

  // The finest period any column has in the range: raw answers use its grid.
  const primary = finestPeriod(columns.map((c) => c.parts), Math.min(...columns.map((c) => c.periodUs)));
  if (p.Interval !== undefined && p.Points !== undefined) throw invalidParam("Give Points or Interval, not both");
  const plan = p.Interval !== undefined ? planInterval(Math.round(start * 1000), Math.round(end * 1000), p.Interval, primary) : planQuery(Math.round(start * 1000), Math.round(end * 1000), p.Points, primary);
  // CSV streams with flat memory, so it has no cap (an export of a year is a long download, not a crash).
  if (p.Format === "json" && !plan.bucketed && plan.size * columns.length > MAX_RAW_JSON) {
    throw invalidParam(`The range holds ${plan.size * columns.length} samples, more than ${MAX_RAW_JSON}; set Points (at most ${MAX_POINTS})`);
  }

  if (p.Format === "csv" && p.CSVSettings) {
    const cell = timeCell(p.CSVSettings.TimeFormat, p.TimeZone ?? "UTC", p.CSVSettings.DecimalSeparator);
    return streamSettingsCsv(r, plan, columns, p.CSVSettings, cell!);
  }
  if (p.Format === "csv") return streamCsv(r, plan, columns, tz ?? timeFormatter("UTC")!);

  const rows = data.store.reader();
  const cols = columns.map((c) => trackColumns(rows, c.parts, plan, 0, plan.size));
  const series: Record<string, unknown> = {
    Start: (plan.g0 * plan.periodUs) / 1000,
    End: end,
    Delta: (plan.w * plan.periodUs) / 1000,
    Size: plan.size,
    Values: cols.map((c) => c.mean),
  };
  if (plan.bucketed) {
    series.Min = cols.map((c) => c.min);
    series.Max = cols.map((c) => c.max);
  }
  if (p.Type === "absolute") {
    series.Timestamps = Array.from({ length: plan.size }, (_, k) => ((plan.g0 + k * plan.w) * plan.periodUs) / 1000);
  }
  sendData(r.res, { TimeSeries: series });
}

// Slice by slice, waiting for the socket to drain: memory stays flat however long the export.
async function streamCsv(r: RestRequest, plan: Plan, columns: Column[], fmt: (ms: number) => string): Promise<void> {
  const { res, ctx } = r;
  res.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": 'attachment; filename="history.csv"',
    "Cache-Control": "no-store",
  });
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  res.write(`time,${columns.map((c) => quote(c.v.Unit ? `${c.v.Name} [${c.v.Unit}]` : c.v.Name)).join(",")}\n`);
  for (let k0 = 0; k0 < plan.size; k0 += CSV_SLICE) {
    if (res.destroyed) return;
    const k1 = Math.min(plan.size, k0 + CSV_SLICE);
    const rows = ctx.data.store.reader();
    const cols = columns.map((c) => trackColumns(rows, c.parts, plan, k0, k1).mean);
    let text = "";
    for (let k = k0; k < k1; k++) {
      text += fmt(((plan.g0 + k * plan.w) * plan.periodUs) / 1000);
      for (const c of cols) {
        const v = c[k - k0];
        text += v === null || v === undefined ? "," : `,${v}`;
      }
      text += "\n";
    }
    if (!res.write(text)) await drained(res);
  }
  res.end();
}

/** The socket took the last write, or the client went away; no listener is left behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      res.off("drain", finish);
      res.off("close", finish);
      done();
    };
    res.on("drain", finish);
    res.on("close", finish);
  });
}

function planInterval(startUs: number, endUs: number, intervalMs: number, periodUs: number): Plan {
  const w = (intervalMs * 1000) / periodUs;
  if (!Number.isInteger(w)) throw invalidParam(`Interval must be a whole multiple of the sample period (${periodUs / 1000} ms)`);
  const a0 = ceilDiv(startUs, periodUs);
  const b0 = ceilDiv(endUs, periodUs);
  const g0 = Math.floor(a0 / w) * w;
  return { startUs, endUs, periodUs, g0, w, size: Math.max(0, ceilDiv(b0 - g0, w)), bucketed: true };
}

async function streamSettingsCsv(r: RestRequest, plan: Plan, columns: Column[], s: CsvSettings, time: (ms: number) => string): Promise<void> {
  const { res, ctx } = r;
  res.writeHead(200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="history.csv"', "Cache-Control": "no-store" });
  res.write(headerLines(s, columns.map((c) => (c.v.Unit ? `${c.v.Name} [${c.v.Unit}]` : c.v.Name))));
  const delimiter = s.Delimiter.charCodeAt(0);
  // Raw samples of the fastest variables come straight from their blocks; others via buckets.
  const direct = columns.map((c) => c.vs !== null && !plan.bucketed && plan.w === 1 && c.periodUs === plan.periodUs);
  for (let k0 = 0; k0 < plan.size; k0 += CSV_SLICE) {
    if (res.destroyed) return;
    const k1 = Math.min(plan.size, k0 + CSV_SLICE);
    const rows = ctx.data.store.reader();
    const cols = columns.map((c, i) => (direct[i] ? null : aggregateTrack(rows, c.parts, plan, k0, k1, s.Aggregate)));
    const out = new RowBuffer((k1 - k0) * (48 + 26 * columns.length), s.DecimalSeparator);
    const blockIdx = columns.map(() => -1);
    const blocks: (Float32Array | null)[] = columns.map(() => null);
    for (let k = k0; k < k1; k++) {
      const g = plan.g0 + k * plan.w;
      out.text(time((g * plan.periodUs) / 1000));
      for (let i = 0; i < columns.length; i++) {
        out.byte(delimiter);
        const col = cols[i];
        if (col) {
          out.value(col[k - k0]);
          continue;
        }
        const vs = columns[i]!.vs!;
        if (g < 0 || g >= vs.end) continue;
        const b = Math.floor(g / BLOCK_SAMPLES);
        // One lookup per block and column, not per sample (row keys are BigInts).
        if (blockIdx[i] !== b) (blockIdx[i] = b), (blocks[i] = rows.block(vs, b));
        const block = blocks[i];
        if (block && g - b * BLOCK_SAMPLES < block.length) out.value(block[g - b * BLOCK_SAMPLES]!);
      }
      out.byte(13);
      out.byte(10);
    }
    if (!res.write(out.buf.subarray(0, out.pos))) await drained(res);
  }
  res.end();
}

export const historyRoutes: RestRoute[] = [
  {
    method: "POST",
    pattern: /^\/(buffer|history)\/data$/,
    handler: (r) => history(r, r.args[0] as Area),
  },
];
