import { createContext } from "react";
import type { ChartEvent, ChartEventKind, ChartLimit, ChartThreshold, SeriesData, VariableInfo } from "./types";
import type { ChartAnnotation } from "./annotations";

/** What the server needs to draw one chart widget as SVG. */
export interface ChartSource {
  series: SeriesData;
  vars: VariableInfo[];
  from: number;
  to: number;
  thresholds?: readonly ChartThreshold[];
  events?: readonly ChartEvent[];
  annotations?: readonly ChartAnnotation[];
  limits?: readonly ChartLimit[];
}

export interface SvgLook {
  height: number;
  locale: string;
  timeZone: string;
  label: string;
  eventWords: Record<ChartEventKind, string>;
  /** "Note", in the reader's language: an annotation's flag is titled with it. */
  annotationWord: string;
}

/**
 * During a server render only: a chart widget's SVG markup by widget id. In the browser there
 * is none, and the widget keeps the server's markup until uPlot replaces it.
 */
export const ServerChartsContext = createContext<((widgetId: string, look: SvgLook) => string | null) | null>(null);
