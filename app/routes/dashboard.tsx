import { useT } from "~/ui/useT";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link, useLocation, useNavigate, useNavigation, useSearchParams } from "react-router";
import { REFRESH_MS } from "~/schemas/dashboardConstants";
import type { DashboardContent } from "~/schemas/dashboards";
import { stateOf } from "~/services/context.server";
import { chartSources, getDashboard, listDashboards, loadDashboardData, pageData } from "~/services/dashboards.server";
import { userTimeZone } from "~/services/zoned.server";
import { requireFeature } from "~/services/guards.server";
import { featureOpen } from "~/services/header.server";
import { mayAddAnnotations } from "~/services/annotations.server";
import { getInstance } from "~/services/i18n.server";
import { seededContent, seedText } from "~/services/shellTexts.server";
import { ChartNotesContext } from "~/ui/dashboard/notesContext";
import { rangeBackHref } from "~/ui/dashboard/ChartBack";
import { DashboardGrid } from "~/ui/dashboard/DashboardGrid";
import type { WidgetData } from "~/ui/dashboard/types";
import { rangeToken } from "~/ui/dashboard/QuickRanges";
import { LiveBus, LiveBusContext } from "~/ui/dashboard/liveBus";
import { RangeBar } from "~/ui/dashboard/RangeBar";
import { resolveRange, resolveRefresh } from "~/ui/dashboard/timeRange";
import { useChartSeries } from "~/ui/dashboard/useChartSeries";
import { AWAY_POLL_MS, usePolledData } from "~/ui/dashboard/useDashboardLive";
import { WidgetCard } from "~/ui/dashboard/WidgetCard";
import { useFormatters } from "~/ui/format";
import { kioskAlarms, type KioskAlarms } from "~/ui/kiosk/kiosk.server";
import { KioskSlot } from "~/ui/kiosk/KioskSlot";
import { DashboardOutage, OutageRefresh, useOutageRecovery } from "~/ui/kiosk/DashboardOutage";
import { planCycle } from "~/ui/kiosk/kioskCycle";
import { loggerAway, offlineStamps, recallPage, rememberPage } from "~/ui/kiosk/outage.server";
import { withoutAlarmLists } from "~/ui/kiosk/outageAlarms.server";
import type { QualitySummary } from "~/ui/live/quality";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { Annunciator } from "~/ui/alarms/Annunciator";
import { readStamps } from "~/ui/live/stamps.server";
import { useLiveValues, type LiveState, type Stamps } from "~/ui/live/useLiveValues";
import { useRootData } from "~/ui/rootData";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/dashboard";

/** A wall display whose dashboard says "off" still refreshes this often (ms). */
const KIOSK_FALLBACK_MS = 60_000;
/** A wall display reloads its alarm strip and values at least this often (ms). */
const KIOSK_MAX_MS = 15_000;
/** Current values drawn into the page may be this old (as loadDashboardData reads them). */
const VALUES_MAX_AGE_MS = 1000;


export async function loader(args: Route.LoaderArgs) {
  const params = args.url.searchParams;
  let auth;
  try {
    auth = await requireFeature(args, "dashboard");
  } catch (error) {
    // A wall display's poll while the logger is away: keep the page, say "offline".
    if (params.has("poll") && loggerAway(error)) return { offline: true as const };
    // A page load then: the page this sign-in last saw here, offline (or the bare chrome and its strip).
    if (loggerAway(error)) return outagePage(args, params);
    throw error;
  }
  const { logger } = stateOf(args.context);
  let page;
  try {
    page = await currentPage(args, params, auth);
  } catch (error) {
    if (!loggerAway(error)) throw error;
    page = null;
  }
  // The logger did not answer within the page's deadline: a poll keeps the picture it has; a page
  // load is the remembered page if there is one (its charts too), else what was kept, offline.
  if (logger.outage || !page) {
    if (params.has("poll")) return { offline: true as const };
    const last = outagePage(args, params);
    if (last.dashboard || !page) return last;
  }
  return page;
}

async function currentPage(args: Route.LoaderArgs, params: URLSearchParams, auth: Awaited<ReturnType<typeof requireFeature>>) {
  const { logger } = stateOf(args.context);
  // The demo content in the reader's language (app/ui/seedTexts.ts); what anyone changed, as it is.
  const { t } = getInstance(args.context);
  const dashboards = (await listDashboards(logger)).map((d) => ({ ...d, Name: seedText(t, d.Name) }));
  const wanted = params.get("id");
  const entry = wanted ? dashboards.find((d) => d.ID.toLowerCase() === wanted.toLowerCase()) : (dashboards.find((d) => d.IsDefault) ?? dashboards[0]);
  const stored = entry ? await getDashboard(logger, entry.ID) : null;
  const dashboard = stored && { ...stored, Name: seedText(t, stored.Name), content: stored.content && seededContent(t, stored.content) };
  const kiosk = params.has("kiosk");
  // A chart panel links to Analytics and to adding a note, for those who may (never on a wall display).
  const may = { analytics: !kiosk && featureOpen(auth, "analytics"), annotate: !kiosk && mayAddAnnotations(auth) };
  const base = { offline: false as const, outage: false, polled: params.has("poll"), dashboards, dashboard, missing: wanted !== null && !dashboard, kiosk, may };
  if (!dashboard?.content) return { ...base, range: null, refresh: "off" as const, data: null, live: null, strip: null };
  const needsZone = [params.get("from"), params.get("to")].some((v) => v && !/^\d+$/.test(v));
  const zone = needsZone ? await userTimeZone(args) : "UTC";
  const range = resolveRange(params, dashboard.content.Range, zone, Date.now());
  const refresh = resolveRefresh(params, dashboard.content.Refresh);
  // Alarm lists: only for those who may use Alarming; the others are told so, the logger is not asked.
  const mayAlarms = featureOpen(auth, "alarming");
  const [data, strip] = await Promise.all([loadDashboardData(logger, dashboard.content, range, mayAlarms, auth), kiosk ? kioskStrip(params, logger, dashboards, dashboard.ID, refresh, mayAlarms) : null]);
  stateOf(args.context).charts = chartSources(data, dashboard.content, range);
  // The values' times, from the same (cached) reads: the page is judged live / stale / offline, with the reason.
  const live = await readStamps(logger, Object.keys(data.values), liveIds(dashboard.content, data.variables), VALUES_MAX_AGE_MS, data.valuesError !== null || data.variablesError !== null);
  if (!logger.outage) rememberPage<LastPage>(args.context, wanted?.toLowerCase() ?? "", { dashboards, dashboard, data, range, refresh, stamps: live.stamps });
  return { ...base, outage: logger.outage !== null, range, refresh, data: pageData(data, dashboard.content), live, strip };
}

type LastPage = { dashboards: Awaited<ReturnType<typeof listDashboards>>; dashboard: NonNullable<Awaited<ReturnType<typeof getDashboard>>>; data: Parameters<typeof pageData>[0]; range: ReturnType<typeof resolveRange>; refresh: keyof typeof REFRESH_MS; stamps: Stamps };

/** The logger is away: the remembered page, everything offline, refreshing itself until it is back. */
function outagePage(args: Route.LoaderArgs, params: URLSearchParams) {
  const last = recallPage<LastPage>(args.context, params.get("id")?.toLowerCase() ?? "");
  const kiosk = params.has("kiosk");
  // The kiosk's alarm strip says the alarm state is unknown: remembered alarms could be untrue now.
  const strip = kiosk ? { alarms: { unknown: true as const }, cycle: null, at: Date.now() } : null;
  const base = { offline: false as const, outage: true, polled: false, missing: false, kiosk, strip, may: { analytics: false, annotate: false } };
  if (!last?.dashboard.content) return { ...base, dashboards: last?.dashboards ?? [], dashboard: null, range: null, refresh: "off" as const, data: null, live: null };
  const { dashboard, data, range } = last;
  stateOf(args.context).charts = chartSources(data, dashboard.content!, range);
  const alarmLists = dashboard.content!.Widgets.filter((w) => w.Type === "alarms").map((w) => w.ID);
  return { ...base, dashboards: last.dashboards, dashboard, range, refresh: last.refresh, data: withoutAlarmLists(pageData(data, dashboard.content!), alarmLists), live: offlineStamps(last.stamps) };
}

/** Variables the page follows live: every one a widget other than text or alarms shows. */
function liveIds(content: DashboardContent, variables: Record<string, unknown>): string[] {
  return [...new Set(content.Widgets.filter((w) => w.Type !== "text" && w.Type !== "alarms").flatMap((w) => w.Variables))].filter((id) => id in variables);
}

/** The kiosk's alarm strip (only for those who may use Alarming) and its rotation. */
async function kioskStrip(params: URLSearchParams, logger: Parameters<typeof kioskAlarms>[0], dashboards: { ID: string }[], id: string, refresh: keyof typeof REFRESH_MS, mayAlarms: boolean) {
  const refreshS = Math.round((REFRESH_MS[refresh] || KIOSK_FALLBACK_MS) / 1000);
  const cycle = planCycle(params, dashboards.map((d) => d.ID), id, refreshS, Math.floor(Date.now() / 1000));
  const alarms: KioskAlarms | null = mayAlarms ? await kioskAlarms(logger) : null;
  return { alarms, cycle, at: Date.now() };
}


export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const root = useRootData();
  const kiosk = !loaderData.offline && loaderData.kiosk;
  const outage = !loaderData.offline && loaderData.outage;
  const ownMs = loaderData.offline ? 0 : REFRESH_MS[loaderData.refresh];
  const refreshMs = outage ? AWAY_POLL_MS : kiosk ? Math.min(ownMs || KIOSK_FALLBACK_MS, KIOSK_MAX_MS) : ownMs;
  const { data: shown, offline } = usePolledData(refreshMs, loaderData);
  useOutageRecovery(outage, shown, offline);
  if (shown.offline) return null;
  const { dashboard, dashboards, missing } = shown;
  const mayEdit = root?.nav.includes("dashboardManager") ?? false;
  return (
    // A kiosk fills the screen (minus <main>'s padding; with the TV scaling of app/ui/kiosk/tv.css,
    // which data-tv asks for, <main>'s height under a banner) and never scrolls: rows share its height.
    <section className={`flex flex-col ${kiosk ? "gap-2 md:h-[calc(100dvh-1rem)] md:overflow-hidden" : "gap-4"}`} data-wide data-tv={kiosk || undefined}>
      {shown.outage ? (
        <OutageRefresh />
      ) : shown.strip?.cycle ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${shown.strip.cycle.meta.seconds};url=${shown.strip.cycle.meta.url}`} />
        </noscript>
      ) : shown.refresh !== "off" || kiosk ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(Math.round((REFRESH_MS[shown.refresh] || KIOSK_FALLBACK_MS) / 1000))} />
        </noscript>
      ) : null}
      {missing && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {t("dashboard.notFound")}
        </p>
      )}
      {!dashboard && shown.outage ? (
        <DashboardOutage kiosk={kiosk} renderedAt={shown.strip?.at ?? 0} />
      ) : !dashboard ? (
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
        <DashboardView key={dashboard.ID} loaderData={shown} offline={offline || shown.outage} mayEdit={mayEdit && !kiosk} />
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
  const location = useLocation();
  const dashboard = loaderData.dashboard!;
  const { data, range, refresh, kiosk } = loaderData;
  const ids = useMemo(() => Object.keys(data?.variables ?? {}).filter((id) => dashboard.content?.Widgets.some((w) => w.Type !== "text" && w.Type !== "alarms" && w.Variables.includes(id))), [data, dashboard]);
  const [bus] = useState(() => new LiveBus());
  const [live, setLive] = useState<LiveView>({ values: data?.values ?? {}, state: "connecting", freshness: loaderData.live?.summary ?? null });
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/dashboard";
  const hasCharts = dashboard.content?.Widgets.some((w) => w.Type === "chart") ?? false;
  const loaded = useChartSeries(hasCharts && range && !loaderData.outage ? { id: dashboard.ID, from: range.from, to: range.to } : null);

  const withRange = useCallback(
    (change: (p: URLSearchParams) => void) => {
      const next = new URLSearchParams(params);
      next.delete("poll");
      change(next);
      void navigate(`?${next}`, { preventScrollReset: true });
    },
    [params, navigate],
  );
  // A zoom remembers the range it leaves (`back`), as the quick ranges do: the chart and the range bar offer it.
  const token = range ? rangeToken(range) : null;
  const onZoom = useCallback((from: number, to: number) => withRange((p) => (p.set("from", String(from)), p.set("to", String(to)), token && p.set("back", token))), [withRange, token]);
  const onReset = useCallback(() => withRange((p) => (p.delete("from"), p.delete("to"), p.delete("back"))), [withRange]);
  const backHref = range && !range.preset ? rangeBackHref(params) : null;

  if (!dashboard.content || !data || !range) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800">
        {t("dashboards.unreadable", { name: dashboard.Name })}
      </p>
    );
  }
  const content = dashboard.content;
  // A poll that found the logger away makes everything offline — unless the live stream has heard
  // from the logger since (it is back: the stream is the quicker of the two to know).
  const summary = live.freshness;
  const away = offline && live.state !== "live";
  const badge = (ids.length === 0 && !loaderData.outage) || !summary ? null : away && summary.state !== "offline" ? { state: "offline" as const, ageMs: null, reason: { kind: "logger" as const } } : summary;
  const each = badge?.state === "offline" ? Object.fromEntries(ids.map((id) => [id, "offline" as const])) : summary?.each;
  const strip = loaderData.strip;
  const back = `${location.pathname}${location.search.replace(/([?&])poll=[^&]*&?/, "$1").replace(/[?&]$/, "")}`;
  const notes = kiosk ? null : { mayAdd: loaderData.may.annotate, back };
  return (
    <ChartNotesContext.Provider value={notes}>
    <LiveBusContext.Provider value={bus}>
      {ids.length > 0 && !loaderData.outage && <LiveFeed ids={ids} initial={data.values} stamps={loaderData.live?.stamps} bus={bus} onChange={setLive} />}
      {kiosk && strip ? (
        <KioskSlot name={dashboard.Name} badge={badge} renderedAt={strip.at} alarms={strip.alarms} cycle={strip.cycle} annunciator={<Annunciator className="text-[0.75rem]" />} />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">{dashboard.Name}</h1>
          <div className="flex flex-wrap items-center gap-4 text-sm">
            {badge && <LiveBadge state={badge.state} ageMs={badge.ageMs} reason={badge.reason} />}
            <Annunciator />
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
      )}
      {offline && (!kiosk || !badge) && (
        <p role="status" className="shrink-0 text-sm text-red-700 dark:text-red-400" data-testid="dashboard-offline">
          {t("dashboards.offline")}
        </p>
      )}
      {!kiosk && <RangeBar range={range} refresh={refresh} />}
      {content.Widgets.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300" data-testid="dashboard-no-widgets">
          {t("dashboards.noWidgets")}
        </p>
      ) : (
        <DashboardGrid content={content} kiosk={kiosk} first={(w) => w.Type === "alarms" && alarmsShown(data.widgets[w.ID])}>
          {(w, approx) => (
            <WidgetCard
              widget={w}
              data={data}
              values={live.values}
              range={{ from: range.from, to: range.to, follow: range.preset !== null, preset: range.preset }}
              analytics={loaderData.may.analytics}
              loaded={loaded?.[w.ID]}
              approx={approx}
              syncKey={`dashboard-${dashboard.ID}`}
              busy={busy}
              kiosk={kiosk}
              freshness={each}
              onZoom={onZoom}
              onReset={onReset}
              backHref={backHref}
            />
          )}
        </DashboardGrid>
      )}
    </LiveBusContext.Provider>
    </ChartNotesContext.Provider>
  );
}

type LiveView = { values: Record<string, number | null>; state: LiveState; freshness: QualitySummary | null };

/** Holds the live stream and judges its values' ages; remounted (reconnected) by its key after an outage. */
function LiveFeed({ ids, initial, stamps, bus, onChange }: { ids: string[]; initial: Record<string, number | null>; stamps?: Stamps; bus: LiveBus; onChange(s: LiveView): void }) {
  const onSample = useCallback((s: Parameters<LiveBus["emit"]>[0]) => bus.emit(s), [bus]);
  const { values, state, freshness } = useLiveValues(ids, initial, onSample, stamps);
  useEffect(() => onChange({ values, state, freshness }), [values, state, freshness, onChange]);
  return null;
}

/** An alarm list widget with alarms to show: it leads the dashboard on a phone. */
function alarmsShown(result: WidgetData | undefined): boolean {
  return result?.state === "ok" && (result.alarms?.rows.length ?? 0) > 0;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const name = loaderData && !loaderData.offline ? loaderData.dashboard?.Name : undefined;
  return name ? [{ title: `Loggia · ${name}` }] : pageTitle(matches, "nav.dashboard");
}
