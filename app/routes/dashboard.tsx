import { useT } from "~/ui/useT";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link, useNavigate, useNavigation, useSearchParams } from "react-router";
import { REFRESH_MS } from "~/schemas/dashboardConstants";
import { stateOf } from "~/services/context.server";
import { chartSources, getDashboard, listDashboards, loadDashboardData, pageData } from "~/services/dashboards.server";
import { userTimeZone } from "~/services/zoned.server";
import { requireFeature } from "~/services/guards.server";
import { featureOpen } from "~/services/header.server";
import { DashboardGrid } from "~/ui/dashboard/DashboardGrid";
import { LiveBus, LiveBusContext } from "~/ui/dashboard/liveBus";
import { RangeBar } from "~/ui/dashboard/RangeBar";
import { resolveRange, resolveRefresh } from "~/ui/dashboard/timeRange";
import { useChartSeries } from "~/ui/dashboard/useChartSeries";
import { usePolledData } from "~/ui/dashboard/useDashboardLive";
import { WidgetCard } from "~/ui/dashboard/WidgetCard";
import { useFormatters } from "~/ui/format";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { useLiveValues, type LiveState } from "~/ui/live/useLiveValues";
import { useRootData } from "~/ui/rootData";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/dashboard";

/** A wall display whose dashboard says "off" still refreshes this often (ms). */
const KIOSK_FALLBACK_MS = 60_000;

export async function loader(args: Route.LoaderArgs) {
  const params = args.url.searchParams;
  let auth;
  try {
    auth = await requireFeature(args, "dashboard");
  } catch (error) {
    // A wall display's poll while the logger is away: keep the page, say "offline".
    if (params.has("poll") && loggerAway(error)) return { offline: true as const };
    throw error;
  }
  const { logger } = stateOf(args.context);
  const dashboards = await listDashboards(logger);
  const wanted = params.get("id");
  const entry = wanted ? dashboards.find((d) => d.ID.toLowerCase() === wanted.toLowerCase()) : (dashboards.find((d) => d.IsDefault) ?? dashboards[0]);
  const dashboard = entry ? await getDashboard(logger, entry.ID) : null;
  const kiosk = params.has("kiosk");
  const base = { offline: false as const, polled: params.has("poll"), dashboards, dashboard, missing: wanted !== null && !dashboard, kiosk };
  if (!dashboard?.content) return { ...base, range: null, refresh: "off" as const, data: null };
  const needsZone = [params.get("from"), params.get("to")].some((v) => v && !/^\d+$/.test(v));
  const zone = needsZone ? await userTimeZone(args) : "UTC";
  const range = resolveRange(params, dashboard.content.Range, zone, Date.now());
  const refresh = resolveRefresh(params, dashboard.content.Refresh);
  // Alarm lists: only for those who may use Alarming; the others are told so, the logger is not asked.
  const data = await loadDashboardData(logger, dashboard.content, range, featureOpen(auth, "alarming"));
  stateOf(args.context).charts = chartSources(data, dashboard.content, range);
  return { ...base, range, refresh, data: pageData(data, dashboard.content) };
}

/** The logger client throws data(…, 502/503) when the logger is unreachable or garbled. */
function loggerAway(error: unknown) {
  const status = (error as { init?: { status?: number } } | null)?.init?.status;
  return status === 502 || status === 503;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const root = useRootData();
  const kiosk = !loaderData.offline && loaderData.kiosk;
  const refreshMs = loaderData.offline ? 0 : REFRESH_MS[loaderData.refresh] || (kiosk ? KIOSK_FALLBACK_MS : 0);
  const { data: shown, offline } = usePolledData(refreshMs, loaderData);
  if (shown.offline) return null;
  const { dashboard, dashboards, missing } = shown;
  const mayEdit = root?.nav.includes("dashboardManager") ?? false;
  return (
    <section className={`flex flex-col ${kiosk ? "gap-2" : "gap-4"}`}>
      {shown.refresh !== "off" || kiosk ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(Math.round((REFRESH_MS[shown.refresh] || KIOSK_FALLBACK_MS) / 1000))} />
        </noscript>
      ) : null}
      {missing && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {t("dashboard.notFound")}
        </p>
      )}
      {!dashboard ? (
        <>
          <h1 className="text-2xl font-semibold">{t("dashboard.title")}</h1>
          <p className="text-slate-600 dark:text-slate-300" data-testid="dashboard-empty">
            {dashboards.length === 0 ? t("dashboard.empty") : t("dashboards.pick")}
          </p>
          <ul className="flex flex-col gap-1">
            {dashboards.map((d) => (
              <li key={d.ID}>
                <Link to={`/${d.ID}`} className={`text-brand hover:underline ${d.IsDefault ? "font-bold" : ""}`}>
                  {d.Name}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <DashboardView key={dashboard.ID} loaderData={shown} offline={offline} mayEdit={mayEdit && !kiosk} />
      )}
    </section>
  );
}

type Loaded = Exclude<Route.ComponentProps["loaderData"], { offline: true }>;

function DashboardView({ loaderData, offline, mayEdit }: { loaderData: Loaded; offline: boolean; mayEdit: boolean }) {
  const t = useT();
  const fmt = useFormatters();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const dashboard = loaderData.dashboard!;
  const { data, range, refresh, kiosk } = loaderData;
  const ids = useMemo(() => Object.keys(data?.variables ?? {}).filter((id) => dashboard.content?.Widgets.some((w) => w.Type !== "text" && w.Type !== "alarms" && w.Variables.includes(id))), [data, dashboard]);
  const [bus] = useState(() => new LiveBus());
  const [live, setLive] = useState<{ values: Record<string, number | null>; state: LiveState }>({ values: data?.values ?? {}, state: "connecting" });
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/dashboard";
  const hasCharts = dashboard.content?.Widgets.some((w) => w.Type === "chart") ?? false;
  const loaded = useChartSeries(hasCharts && range ? { id: dashboard.ID, from: range.from, to: range.to } : null);

  const withRange = useCallback(
    (change: (p: URLSearchParams) => void) => {
      const next = new URLSearchParams(params);
      next.delete("poll");
      change(next);
      void navigate(`?${next}`, { preventScrollReset: true });
    },
    [params, navigate],
  );
  const onZoom = useCallback((from: number, to: number) => withRange((p) => (p.set("from", String(from)), p.set("to", String(to)))), [withRange]);
  const onReset = useCallback(() => withRange((p) => (p.delete("from"), p.delete("to"))), [withRange]);

  if (!dashboard.content || !data || !range) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800">
        {t("dashboards.unreadable", { name: dashboard.Name })}
      </p>
    );
  }
  const content = dashboard.content;
  return (
    <LiveBusContext.Provider value={bus}>
      {ids.length > 0 && <LiveFeed ids={ids} initial={data.values} bus={bus} onChange={setLive} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className={kiosk ? "text-lg font-semibold" : "text-2xl font-semibold"}>{dashboard.Name}</h1>
        <div className="flex flex-wrap items-center gap-4 text-sm">
          {offline && (
            <span role="status" className="text-red-700 dark:text-red-400" data-testid="dashboard-offline">
              {t("dashboards.offline")}
            </span>
          )}
          {ids.length > 0 && <LiveBadge state={live.state} />}
          <span className="text-slate-500" data-testid="dashboard-range">
            {fmt.dateTime(range.from)} – {fmt.dateTime(range.to)}
          </span>
          {mayEdit && (
            <Link to={`/dashboardManager?edit=${dashboard.ID}`} className="text-brand hover:underline">
              {t("dashboards.edit")}
            </Link>
          )}
        </div>
      </div>
      {!kiosk && <RangeBar range={range} refresh={refresh} />}
      {content.Widgets.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300" data-testid="dashboard-no-widgets">
          {t("dashboards.noWidgets")}
        </p>
      ) : (
        <DashboardGrid content={content}>
          {(w, approx) => (
            <WidgetCard
              widget={w}
              data={data}
              values={live.values}
              range={{ from: range.from, to: range.to, follow: range.preset !== null }}
              loaded={loaded?.[w.ID]}
              approx={approx}
              syncKey={`dashboard-${dashboard.ID}`}
              busy={busy}
              kiosk={kiosk}
              onZoom={onZoom}
              onReset={onReset}
            />
          )}
        </DashboardGrid>
      )}
    </LiveBusContext.Provider>
  );
}

/** Holds the live stream; remounted (reconnected) by its key after an outage. */
function LiveFeed({ ids, initial, bus, onChange }: { ids: string[]; initial: Record<string, number | null>; bus: LiveBus; onChange(s: { values: Record<string, number | null>; state: LiveState }): void }) {
  const onSample = useCallback((s: Parameters<LiveBus["emit"]>[0]) => bus.emit(s), [bus]);
  const { values, state } = useLiveValues(ids, initial, onSample);
  useEffect(() => onChange({ values, state }), [values, state, onChange]);
  return null;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const name = loaderData && !loaderData.offline ? loaderData.dashboard?.Name : undefined;
  return name ? [{ title: `Loggia · ${name}` }] : pageTitle(matches, "nav.dashboard");
}
