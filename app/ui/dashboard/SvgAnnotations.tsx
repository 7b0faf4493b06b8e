import { ANNOTATION_HEX, type ChartAnnotation } from "./annotations";

// Operator annotations on the server's SVG chart (issue 28 §6): a span as a faint band with
// dashed edges, a note at one time as a line, each with a flag on top whose title is the note.
// Two parts, as the chart draws in two coordinate systems: the bands inside the data's viewBox
// (x in buckets), the flags outside it (x in percent of the plot).

const pct = (f: number) => `${(f * 100).toFixed(3)}%`;

export function SvgAnnotationBands({ notes, from, to, width }: { notes: readonly ChartAnnotation[]; from: number; to: number; width: number }) {
  const span = to - from || 1;
  const x = (t: number) => (Math.min(Math.max((t - from) / span, 0), 1) * width).toFixed(3);
  return (
    <g data-testid="svg-annotations">
      {notes.map((a) =>
        a.end > a.start ? (
          <g key={a.id}>
            <rect x={x(a.start)} width={(Number(x(a.end)) - Number(x(a.start))).toFixed(3)} y={0} height={1000} fill={ANNOTATION_HEX} fillOpacity={0.1} />
            {[a.start, a.end].map((t) => (t >= from && t <= to ? <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={1000} stroke={ANNOTATION_HEX} strokeWidth={1} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" /> : null))}
          </g>
        ) : (
          <line key={a.id} x1={x(a.start)} x2={x(a.start)} y1={0} y2={1000} stroke={ANNOTATION_HEX} strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
        ),
      )}
    </g>
  );
}

export function SvgAnnotationFlags({ notes, from, to, label }: { notes: readonly ChartAnnotation[]; from: number; to: number; label: (a: ChartAnnotation) => string }) {
  const span = to - from || 1;
  return (
    <>
      {notes.map((a) => {
        const at = Math.min(Math.max(a.start, from), to);
        return (
          <g key={a.id} data-annotation={a.id} fill={ANNOTATION_HEX}>
            <title>{label(a)}</title>
            <svg x={pct((at - from) / span)} y={0} overflow="visible">
              <path d="M0 -13v13M0 -13h8l-2 3l2 3h-8z" stroke={ANNOTATION_HEX} strokeWidth={1.5} />
            </svg>
          </g>
        );
      })}
    </>
  );
}
