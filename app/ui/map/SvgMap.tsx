import type { DeviceState } from "~/services/deviceState";
import { STATE_COLOURS } from "~/services/deviceState";

// The server-rendered map (the whole map without JavaScript). Geometry comes ready from
// app/services/mapSvg.server.ts; names and texts go through React, which escapes them.

export type SvgMapProps = {
  title: string;
  width: number;
  height: number;
  countries: { id: string; name: string; d: string }[];
  markers: { id: string; x: number; y: number; name: string; state: DeviceState; label: string }[];
};

export function SvgMap({ title, width, height, countries, markers }: SvgMapProps) {
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label={title}
      className="h-auto w-full rounded-lg bg-sky-100 dark:bg-slate-900"
      data-testid="svg-map"
      xmlns="http://www.w3.org/2000/svg"
    >
      <title>{title}</title>
      <g className="fill-stone-100 stroke-stone-400 dark:fill-slate-700 dark:stroke-slate-500" strokeWidth={0.8}>
        {countries.map((c) => (
          <path key={c.id} d={c.d} data-country={c.name} />
        ))}
      </g>
      <g>
        {markers.map((m) => (
          <a key={m.id} href={`#device-${m.id}`} aria-label={m.label} data-testid="svg-marker" data-device={m.name} data-state={m.state}>
            <title>{m.label}</title>
            <circle cx={m.x} cy={m.y} r={9} fill={STATE_COLOURS[m.state]} stroke="#fff" strokeWidth={2.5} />
            <text x={m.x + 13} y={m.y + 5} fontSize={15} className="fill-slate-900 dark:fill-slate-100" paintOrder="stroke" stroke="white" strokeWidth={3} strokeLinejoin="round">
              {m.name}
            </text>
          </a>
        ))}
      </g>
    </svg>
  );
}
