import { data } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { getDashboard, loadDashboardData } from "~/services/dashboards.server";
import { requireFeature } from "~/services/guards.server";
import { featureOpen } from "~/services/header.server";
import { limitsOf } from "~/services/limits.server";
import type { ChartEvent, ChartLimit, ChartThreshold, SeriesData } from "~/ui/dashboard/types";
import type { ChartAnnotation } from "~/ui/dashboard/annotations";
import type { Route } from "./+types/dashboardSeries";

// The buckets of a dashboard's charts for uPlot, fetched by the page after hydration: the page
// itself carries only the server's SVG, so its HTML and hydration data stay small.
const query = z
  .object({
    id: z.string().min(1).max(64),
    from: z.coerce.number().int().nonnegative(),
    to: z.coerce.number().int().positive(),
  })
  .refine((q) => q.to > q.from, "to must be after from");

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "dashboard");
  const parsed = query.safeParse(Object.fromEntries(args.url.searchParams));
  if (!parsed.success) throw data({ reason: "bad-request" }, { status: 400 });
  const { id, from, to } = parsed.data;
  const { logger } = stateOf(args.context);
  const dashboard = await getDashboard(logger, id);
  if (!dashboard?.content) throw data({ reason: "not-found" }, { status: 404 });
  const charts = dashboard.content.Widgets.filter((w) => w.Type === "chart");
  // Alarm events only for viewers who may see alarms, as on the page.
  const loaded = await loadDashboardData(logger, { ...dashboard.content, Widgets: charts }, { from, to }, featureOpen(auth, "alarming"), auth);
  const widgets: Record<string, SeriesData | { error: string }> = {};
  // Beside the buckets: what the interactive chart draws over them (the page's SVG has them too).
  const extras: Record<string, { thresholds: ChartThreshold[]; events: ChartEvent[]; limits: ChartLimit[]; annotations: ChartAnnotation[] }> = {};
  for (const w of charts) {
    const d = loaded.widgets[w.ID];
    if (d?.state === "ok" && d.series) widgets[w.ID] = d.series;
    else if (d?.state === "error") widgets[w.ID] = { error: d.error };
    extras[w.ID] = {
      thresholds: w.Options.Thresholds ?? [],
      events: loaded.chartEvents?.[w.ID] ?? [],
      limits: limitsOf(loaded.limits, w.Variables),
      annotations: loaded.chartAnnotations?.[w.ID] ?? [],
    };
  }
  return Response.json({ from, to, widgets, extras }, { headers: { "Cache-Control": "private, no-store" } });
}
