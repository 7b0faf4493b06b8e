import type uPlot from "uplot";

/** What a band is traced into: a Path2D in the browser, a recorder in tests. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

type Plot = Pick<uPlot, "scales" | "bbox" | "data">;

/**
 * Traces the band between two columns (`lowIdx`, `highIdx`) over the buckets idx0…idx1 in canvas
 * pixels: one polygon per run of buckets that have both, the highs forward and the lows back;
 * buckets falling in one pixel column are merged (the lowest low, the highest high), so a polygon
 * has at most two points a column whatever the data. False when the scales are not set yet.
 */
export function traceBand(sink: PathSink, u: Plot, scaleKey: string, lowIdx: number, highIdx: number, idx0: number, idx1: number): boolean {
  const x = u.scales.x;
  const y = u.scales[scaleKey];
  if (x?.min == null || x.max == null || y?.min == null || y.max == null || x.max === x.min || y.max === y.min) return false;
  const { left, top, width, height } = u.bbox;
  const kx = width / (x.max - x.min);
  const ky = height / (y.max - y.min);
  const bottom = top + height;
  const times = u.data[0] as number[];
  const low = u.data[lowIdx] as (number | null | undefined)[];
  const high = u.data[highIdx] as (number | null | undefined)[];
  const xs: number[] = [];
  const tops: number[] = [];
  const bottoms: number[] = [];
  const close = () => {
    const n = xs.length;
    if (n > 1) {
      sink.moveTo(xs[0]!, tops[0]!);
      for (let k = 1; k < n; k++) sink.lineTo(xs[k]!, tops[k]!);
      for (let k = n - 1; k >= 0; k--) sink.lineTo(xs[k]!, bottoms[k]!);
      sink.closePath();
    }
    xs.length = tops.length = bottoms.length = 0;
  };
  for (let i = idx0; i <= idx1; i++) {
    const lo = low[i];
    const hi = high[i];
    if (lo == null || hi == null) {
      close();
      continue;
    }
    const px = Math.round(left + (times[i]! - x.min) * kx);
    const pyHigh = bottom - (hi - y.min) * ky;
    const pyLow = bottom - (lo - y.min) * ky;
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === px) {
      tops[last] = Math.min(tops[last]!, pyHigh);
      bottoms[last] = Math.max(bottoms[last]!, pyLow);
    } else {
      xs.push(px);
      tops.push(pyHigh);
      bottoms.push(pyLow);
    }
  }
  close();
  return true;
}

/**
 * A mean's line (uPlot's own linear builder) with its min–max band as one fill under it
 * (traceBand). uPlot's bands instead clip each band's fill with copies of both edges' paths (three
 * Path2D copies of a 1,000-point edge and a path clip per band and draw): most of a live update's
 * time, by profile. The edges are then series with no paths of their own (`noPaths`): their data
 * still sets the scale and the read-out.
 */
export function lineWithBand(uPlotCtor: typeof uPlot, lowIdx: number, highIdx: number, fill: string): uPlot.Series.PathBuilder {
  let line: uPlot.Series.PathBuilder | null = null;
  return (u, seriesIdx, idx0, idx1) => {
    line ??= uPlotCtor.paths.linear!();
    const paths = line(u, seriesIdx, idx0, idx1);
    const band = new Path2D();
    if (!paths || !traceBand(band, u, u.series[seriesIdx]!.scale!, lowIdx, highIdx, idx0, idx1)) return paths;
    return { ...paths, fill: band, _fill: fill };
  };
}

/** A series that is data only (a band's edge): nothing of it is drawn. */
export const noPaths: uPlot.Series.PathBuilder = () => null;
