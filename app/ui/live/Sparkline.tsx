/** A small server-renderable SVG line (means) with a min/max band; nulls are gaps. */
export function Sparkline({ values, min, max, className = "h-10 w-full" }: { values: (number | null)[]; min?: (number | null)[]; max?: (number | null)[]; className?: string }) {
  const shape = shapeOf(values, min, max);
  if (!shape) return <svg className={className} viewBox="0 0 100 30" aria-hidden="true" />;
  const { line, band } = shape;
  return (
    <svg className={className} viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true">
      {band.map((points, k) => (
        <polygon key={`b${k}`} points={points} className="fill-brand/15" />
      ))}
      {line.map((points, k) => (
        <polyline key={`l${k}`} points={points} fill="none" className="stroke-brand" strokeWidth={1.2} vectorEffect="non-scaling-stroke" />
      ))}
    </svg>
  );
}

type Shape = { min?: (number | null)[]; max?: (number | null)[]; line: string[]; band: string[] } | null;
// The points of a series, kept while its arrays live: a dashboard's series is one cached logger
// answer for a whole bucket, and every page (and kiosk) in that time draws the same sparkline.
const shapes = new WeakMap<(number | null)[], Shape>();

function shapeOf(values: (number | null)[], min?: (number | null)[], max?: (number | null)[]): Shape {
  const known = shapes.get(values);
  if (known !== undefined && (known === null || (known.min === min && known.max === max))) return known;
  const shape = drawShape(values, min, max);
  shapes.set(values, shape && { ...shape, min, max });
  return shape;
}

function drawShape(values: (number | null)[], min?: (number | null)[], max?: (number | null)[]): Shape {
  const all = [...values, ...(min ?? []), ...(max ?? [])].filter((v): v is number => v !== null && Number.isFinite(v));
  if (all.length === 0) return null;
  const low = Math.min(...all);
  const high = Math.max(...all);
  const span = high - low || Math.abs(high) || 1;
  const n = Math.max(values.length - 1, 1);
  const x = (i: number) => (i / n) * 100;
  const y = (v: number) => 28 - ((v - low) / span) * 26;
  const line = segments(values).map((seg) => seg.map((i) => `${x(i).toFixed(2)},${y(values[i]!).toFixed(2)}`).join(" "));
  const band =
    min && max
      ? segments(min.map((v, i) => (v === null || max[i] === null ? null : v))).map(
          (seg) => `${seg.map((i) => `${x(i).toFixed(2)},${y(max[i]!).toFixed(2)}`).join(" ")} ${seg.toReversed().map((i) => `${x(i).toFixed(2)},${y(min[i]!).toFixed(2)}`).join(" ")}`,
        )
      : [];
  return { line, band };
}

/** Index runs of non-null values. */
function segments(values: (number | null)[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(i);
  });
  if (run.length) runs.push(run);
  return runs;
}
