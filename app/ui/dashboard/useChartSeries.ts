import { useEffect, useState } from "react";
import type { ChartEvent, ChartLimit, ChartThreshold, SeriesData } from "./types";
import type { ChartAnnotation } from "./annotations";

export interface LoadedChart {
  series: SeriesData;
  from: number;
  to: number;
  thresholds?: readonly ChartThreshold[];
  events?: readonly ChartEvent[];
  annotations?: readonly ChartAnnotation[];
  limits?: readonly ChartLimit[];
}
type Loaded = Record<string, LoadedChart>;

/**
 * The buckets of the dashboard's charts for uPlot, fetched after hydration (and again for each
 * new range). Until they arrive, and if fetching fails, the server's SVG stays.
 */
export function useChartSeries(want: { id: string; from: number; to: number } | null): Loaded | null {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // A note added, changed or removed on this page: the charts fetch their notes again.
  const [edits, setEdits] = useState(0);
  useEffect(() => {
    const bump = () => setEdits((n) => n + 1);
    window.addEventListener("loggia:annotations", bump);
    return () => window.removeEventListener("loggia:annotations", bump);
  }, []);
  const key = want ? `id=${encodeURIComponent(want.id)}&from=${Math.round(want.from)}&to=${Math.round(want.to)}` : null;
  useEffect(() => {
    if (!key) return;
    const ctrl = new AbortController();
    fetch(`/dashboard/series?${key}`, { signal: ctrl.signal, headers: { Accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : null))
      .then((json: unknown) => {
        const answer = json as {
          from?: unknown;
          to?: unknown;
          widgets?: Record<string, unknown>;
          extras?: Record<string, { thresholds?: ChartThreshold[]; events?: ChartEvent[]; limits?: ChartLimit[]; annotations?: ChartAnnotation[] }>;
        } | null;
        if (!answer || typeof answer.from !== "number" || typeof answer.to !== "number" || !answer.widgets) return;
        const next: Loaded = {};
        for (const [id, s] of Object.entries(answer.widgets)) {
          const extra = answer.extras?.[id];
          if (isSeries(s))
            next[id] = { series: s, from: answer.from, to: answer.to, thresholds: extra?.thresholds ?? [], events: extra?.events ?? [], limits: extra?.limits ?? [], annotations: extra?.annotations ?? [] };
        }
        setLoaded(next);
      })
      .catch(() => {
        // Aborted, or the logger/network is away: the chart keeps what it shows.
      });
    return () => ctrl.abort();
  }, [key, edits]);
  return loaded;
}

function isSeries(s: unknown): s is SeriesData {
  const v = s as Partial<SeriesData> | null;
  return !!v && typeof v.start === "number" && typeof v.delta === "number" && typeof v.size === "number" && Array.isArray(v.values);
}
