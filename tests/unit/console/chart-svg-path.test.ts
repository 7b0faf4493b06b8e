import { describe, expect, it } from "vitest";
import { bandPath, linePath } from "~/ui/dashboard/SvgChart";

// The server SVG's paths write level stretches as one "h n" (issue 15: the dashboard page's size
// and render cost). They must still pass through every bucket's point: decoded back to absolute
// vertices, each run keeps its first and last point, and every bucket between two vertices lies
// on the straight segment joining them.

type Point = [number, number];

/** Absolute vertices per subpath of a path made of M, l, h and Z. */
function decode(d: string): Point[][] {
  const runs: Point[][] = [];
  let x = 0;
  let y = 0;
  for (const [, cmd, args] of d.matchAll(/([MlhZ])([^MlhZ]*)/g)) {
    const n = (args!.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    if (cmd === "M") {
      [x, y] = [n[0]!, n[1]!];
      runs.push([[x, y]]);
    } else if (cmd === "l") {
      expect(n.length % 2).toBe(0);
      for (let i = 0; i < n.length; i += 2) runs.at(-1)!.push([(x += n[i]!), (y += n[i + 1]!)]);
    } else if (cmd === "h") {
      for (const dx of n) runs.at(-1)!.push([(x += dx), y]);
    }
  }
  return runs;
}

/** Every expected point lies on the decoded polyline, in order, and the ends match. */
function expectSameLine(decoded: Point[], expected: Point[]) {
  expect(decoded[0]).toEqual(expected[0]);
  expect(decoded.at(-1)).toEqual(expected.at(-1));
  let seg = 0;
  for (const [px, py] of expected) {
    // Advance to the segment that holds this point.
    while (seg < decoded.length - 1) {
      const [ax, ay] = decoded[seg]!;
      const [bx, by] = decoded[seg + 1]!;
      const within = Math.min(ax, bx) <= px && px <= Math.max(ax, bx);
      const onLine = (bx - ax) * (py - ay) === (by - ay) * (px - ax);
      if (within && onLine && !(px === bx && py === by && seg + 2 < decoded.length)) break;
      seg++;
    }
    const [ax, ay] = decoded[seg]!;
    const [bx, by] = decoded[Math.min(seg + 1, decoded.length - 1)]!;
    expect(Math.abs((bx - ax) * (py - ay) - (by - ay) * (px - ax))).toBe(0);
    expect(Math.min(ax, bx) <= px && px <= Math.max(ax, bx)).toBe(true);
  }
}

/** Data with level stretches, steps both ways and gaps, reproducible. */
function sample(n: number, seed: number): (number | null)[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let v = 50;
  return Array.from({ length: n }, () => {
    const r = rnd();
    if (r < 0.05) return null;
    if (r < 0.6) return v;
    v += Math.round((rnd() - 0.5) * 10);
    return v;
  });
}

describe("server SVG paths", () => {
  it("write a level stretch as one h", () => {
    expect(linePath([5, 5, 5, 5, 6, 6, 4], (v) => v)).toBe("M0 5h3l1 1h1l1-2");
  });

  it("keep a level band's way out and back apart", () => {
    const d = bandPath([5, 5, 5, 5], [5, 5, 5, 5], (v) => v);
    expect(d).toBe("M0 5h3h-3Z");
    expect(decode(d)[0]!.map(([x]) => x)).toEqual([0, 3, 0]);
  });

  it("pass through every bucket of a line, gaps kept", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const values = sample(400, seed);
      const runs: Point[][] = [];
      values.forEach((v, k) => {
        if (v === null) return;
        if (k === 0 || values[k - 1] === null) runs.push([]);
        runs.at(-1)!.push([k, v]);
      });
      const decoded = decode(linePath(values, (v) => v));
      expect(decoded).toHaveLength(runs.length);
      runs.forEach((run, i) => expectSameLine(decoded[i]!, run));
    }
  });

  it("close each band along the maxima and back along the minima", () => {
    for (const seed of [6, 7, 8]) {
      const mid = sample(300, seed);
      const min = mid.map((v) => (v === null ? null : v - 2));
      const max = mid.map((v, k) => (v === null ? null : v + (k % 3)));
      const runs: Point[][] = [];
      let run: number[] = [];
      const flush = () => {
        if (run.length > 1) runs.push([...run.map((k): Point => [k, max[k]!]), ...run.toReversed().map((k): Point => [k, min[k]!])]);
        run = [];
      };
      mid.forEach((v, k) => (v === null ? flush() : run.push(k)));
      flush();
      const d = bandPath(min, max, (v) => v);
      expect(d.match(/Z/g)).toHaveLength(runs.length);
      const decoded = decode(d);
      runs.forEach((r, i) => expectSameLine(decoded[i]!, r));
    }
  });
});
