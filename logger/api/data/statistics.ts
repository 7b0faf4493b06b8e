import { z } from "zod";
import { invalidParam } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRequest, RestRoute } from "../../http/rest.ts";
import { f32 } from "../../store/series/query.ts";
import { pacer } from "../../http/pacing.ts";
import { HEAVY_RAW_SAMPLES, heavyKey } from "../../http/heavy.ts";
import { rawSamplesOf, trackStatisticsOf } from "../../store/series/statistics.ts";
import { epochMs, horizonMs, storedVariable } from "./common.ts";

/** Above this many samples of one variable, StdDev and RMS (a pass over raw samples) are null. */
export const MAX_SPREAD_SAMPLES = 20_000_000;

const Params = z.object({
  Start: epochMs,
  End: epochMs.default(0),
  Variables: z.array(z.object({ SID: z.string().min(1), VID: z.string().min(1) })).min(1).max(100),
});

const num = (v: number | null) => (v === null ? null : Number(v.toPrecision(12)));

async function handler(r: RestRequest): Promise<void> {
  const p = await r.input(Params);
  const data = r.ctx.data;
  const end = p.End === 0 ? data.now() : p.End;
  const start = p.Start < 0 ? end + p.Start : p.Start;
  if (!(end > start)) throw invalidParam("End must be after Start");
  if (start < 0) throw invalidParam("Start lies before 1970");
  const targets = p.Variables.map(({ SID, VID }) => {
    const { v, src } = storedVariable(data, SID, VID);
    const horizon = horizonMs(data, src, "history");
    if (end <= horizon) throw invalidParam(`The range ends before ${new Date(horizon).toISOString()}, the oldest data source ${src.Name} keeps`);
    return { SID, VID, v, from: Math.max(start, horizon) };
  });
  // The spread's pass over raw samples (up to MAX_SPREAD_SAMPLES per variable) gives other
  // requests turns; a long one is heavy: it takes a place and runs in the heavy answers' lane.
  const range = (t: (typeof targets)[number]) => [Math.round(t.from * 1000), Math.round(end * 1000)] as const;
  const rawPass = targets.reduce((n, t) => {
    const samples = rawSamplesOf(data.store.partsOf(t.v, ...range(t)), ...range(t));
    return n + (samples <= MAX_SPREAD_SAMPLES ? samples : 0);
  }, 0);
  const heavy = rawPass > HEAVY_RAW_SAMPLES;
  const release = heavy ? await data.heavy.gate.admit(heavyKey(r.caller, r.req), r.res) : null;
  const lane = data.heavy.lane;
  const pace = heavy ? () => lane.yield() : pacer();
  const out = [];
  try {
    if (heavy) await lane.enter();
    for (const t of targets) {
      const { SID, VID, v } = t;
      // Across every segment of the range (a source's rate may have changed inside it).
      const [fromUs, toUs] = range(t);
      const s = await trackStatisticsOf(data.store, data.store.partsOf(v, fromUs, toUs), fromUs, toUs, MAX_SPREAD_SAMPLES, pace);
      if (r.res.destroyed) return;
      out.push({
        SID,
        VID,
        Count: s.count,
        Min: s.min === null ? null : f32(s.min),
        Max: s.max === null ? null : f32(s.max),
        Mean: num(s.mean),
        StdDev: num(s.std),
        RMS: num(s.rms),
        First: s.first ? f32(s.first.value) : null,
        FirstTime: s.first ? s.first.timeMs : null,
        Last: s.last ? f32(s.last.value) : null,
        LastTime: s.last ? s.last.timeMs : null,
      });
      await pace();
    }
  } finally {
    if (heavy) lane.leave();
    release?.();
  }
  sendData(r.res, { Start: start, End: end, Statistics: out });
}

export const statisticsRoutes: RestRoute[] = [{ method: "POST", pattern: /^\/history\/statistics$/, handler }];
