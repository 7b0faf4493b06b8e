// Runs in Chromium (served by Vite from bench/dashboard.ts): the dashboard's chart component
// against bare uPlot on the same data, in the same page. Results land in window.__bench.
import { createContext, createElement, type ReactElement, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import i18next from "i18next";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { LiveBus, LiveBusContext } from "~/ui/dashboard/liveBus";
import type { LiveSample } from "~/ui/live/useLiveValues";
import shellTexts from "~/locales/en/translation.json";
import dashboardTexts from "~/locales/en/dashboards.json";
import type { SeriesData, VariableInfo } from "~/ui/dashboard/types";
import { chartOptions, toColumns, UPlotChart } from "~/ui/dashboard/UPlotChart";

const N = 8;
const SIZE = 1000;
const WARM = 15;
const end = Date.now();
const series: SeriesData = { start: end - SIZE * 3600, delta: 3600, size: SIZE, values: [], min: [], max: [] };
for (let i = 0; i < N; i++) {
  const mean = Array.from({ length: SIZE }, (_, k) => 50 + 20 * Math.sin(k / (40 + i * 7)) + i * 5);
  series.values.push(mean);
  series.min!.push(mean.map((v) => v - 3));
  series.max!.push(mean.map((v) => v + 3));
}
const vars: VariableInfo[] = Array.from({ length: N }, (_, i) => ({ Id: `v${i}`, Name: `Signal ${i}`, Unit: i < 4 ? "°C" : "bar", DataFormat: "FLOAT" }));
const props = { vars, from: series.start, to: end, locale: "en-US", timeZone: "UTC", syncKey: "bench" };
// What a dashboard chart carries besides its data (issue 15): thresholds, events, read-out texts.
const extras = {
  thresholds: [
    { Value: 60, Color: "amber" as const },
    { Value: 75, Color: "red" as const },
  ],
  events: [
    { t: end - 600_000, kind: "alarmRaised" as const, name: "Oil hot" },
    { t: end - 300_000, kind: "alarmCleared" as const, name: "Oil hot" },
    { t: end - 900_000, kind: "measStart" as const, name: "Run 1" },
  ],
  eventWords: { alarmRaised: "Alarm raised", alarmCleared: "Alarm cleared", measStart: "Measurement started", measStop: "Measurement stopped" },
  label: "Chart of 8 signals",
  keysHint: "Arrow keys move the cursor",
  readOutTexts: { title: "Values at the cursor", noValue: "no data", minMax: (min: string, max: string) => `min ${min} · max ${max}` },
  // Issue 28: operator annotations (a note at a time, one over a span) with their flags, and the
  // shared crosshair, as the dashboard's charts carry them.
  notes: {
    list: [
      { id: 1, start: end - 1_200_000, end: end - 1_200_000, text: "Changed injector", tags: ["maintenance"], author: "olga", variables: [], canEdit: true, canRemove: true },
      { id: 2, start: end - 2_400_000, end: end - 1_800_000, text: "Warm-up run", tags: [], author: "olga", variables: [], canEdit: true, canRemove: true },
    ],
    mayAdd: true,
    variables: vars.map((v) => v.Id),
    back: "/dashboard",
    texts: { word: "Note", add: "Add note", text: "Note", tags: "Tags", tagsHint: "", save: "Save note", cancel: "Cancel", edit: "Edit", remove: "Remove", close: "Close", failed: "", at: (s: number) => new Date(s).toISOString() },
  },
};
const frame = () => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Main-thread time until the first draw is done (a microtask queued after uPlot's commit), without the wait for the next frame. */
let drawnMs = 0;
/** ?profile: the next paint's clock runs in a CPU profile too (bench/chartProfile.ts collects it over CDP). */
let profileNext = false;
const clockStarts = () => {
  if (profileNext) console.profile("cold");
  return performance.now();
};
const clockStops = () => {
  if (profileNext) console.profileEnd("cold");
  profileNext = false;
};
const afterCommit = () => new Promise<void>((r) => queueMicrotask(r));

async function bare(): Promise<number> {
  const el = document.getElementById("bare")!;
  el.innerHTML = "";
  const t0 = clockStarts();
  const u = new uPlot(chartOptions(props, uPlot, true, { width: 1200, height: 400 }), toColumns(series, N) as uPlot.AlignedData, el);
  u.setScale("x", { min: props.from / 1000, max: props.to / 1000 });
  await afterCommit();
  drawnMs = performance.now() - t0;
  const t = (await frame()) - t0;
  clockStops();
  u.destroy();
  return t;
}

// The texts the chart's parts look up (its notes' flags and form: useT), as a page's i18n has them.
const i18n = i18next.createInstance();
await i18n.init({ lng: "en", resources: { en: { translation: { ...shellTexts, dashboards: dashboardTexts } } }, interpolation: { escapeValue: false } });

/**
 * A chart as on a page: in a data router whose root has the shell's data (its formats read the
 * user's locale and time zone; a note's flag links to the annotations screen) and with the page's
 * texts — without them a note's flag threw on its first render and React unmounted the chart, so
 * the live figure measured samples sent to an unmounted chart.
 */
function onPage(chart: ReactElement): ReactElement {
  const router = createMemoryRouter([{ id: "root", path: "/", element: chart }], { hydrationData: { loaderData: { root: { localeId: "en-US", timeZone: "UTC" } } } });
  return createElement(I18nextProvider, { i18n }, createElement(RouterProvider, { router }));
}

/**
 * The page (router, texts) rendered first, the chart mounted into it when `mount` is called — as
 * a dashboard's chart mounts into a page already on screen once its chunk and data are there (a
 * state update of its widget), not in the page's first render: timing the router's first render
 * with the chart charged it some 9 ms of a cold paint (by performance marks) that a page has
 * spent before any chart mounts.
 */
async function pageWithSlot(root: ReturnType<typeof createRoot>, chart: ReactElement): Promise<() => void> {
  let show!: (on: boolean) => void;
  let shown!: () => void;
  const rendered = new Promise<void>((resolve) => (shown = resolve));
  function Slot() {
    const [on, setOn] = useState(false);
    show = setOn;
    useEffect(() => shown(), []);
    return on ? chart : null;
  }
  root.render(onPage(createElement(Slot)));
  await rendered;
  await new Promise((idle) => requestIdleCallback(idle, { timeout: 2000 }));
  return () => show(true);
}

async function component(): Promise<number> {
  const el = document.getElementById("component")!;
  const root = createRoot(el);
  let ready!: () => void;
  const created = new Promise<void>((resolve) => (ready = resolve));
  const mount = await pageWithSlot(
    root,
    createElement(UPlotChart, {
      ...props,
      ...extras,
      series,
      follow: false,
      hidden: new Set<string>(),
      onZoom() {},
      onReset() {},
      // As ChartWidget gives it: the area's size from the layout before the chart mounted.
      sizeHint: () => ({ width: 1200, height: 400 }),
      // Called right after the chart was created: its commit (the first draw) is queued before this.
      onReady: () => void afterCommit().then(ready),
    }),
  );
  const t0 = clockStarts();
  mount();
  await created;
  drawnMs = performance.now() - t0;
  const t = (await frame()) - t0;
  clockStops();
  root.unmount();
  return t;
}

async function liveUpdates(): Promise<{ bare: number; component: number }> {
  const el = document.getElementById("bare")!;
  el.innerHTML = "";
  const data = toColumns(series, N);
  const u = new uPlot(chartOptions(props, uPlot, true, { width: 1200, height: 400 }), data as uPlot.AlignedData, el);
  const bareTimes: number[] = [];
  const profileLive = new URLSearchParams(location.search).has("profile-live");
  if (profileLive) console.profile("live-bare");
  for (let k = 0; k < 60; k++) {
    // The same work the component does per sample: new data and the window moved, drawn at once.
    const t0 = performance.now();
    u.batch(() => {
      u.setData(data as uPlot.AlignedData, false);
      u.setScale("x", { min: props.from / 1000 + k, max: props.to / 1000 + k });
    });
    bareTimes.push(performance.now() - t0);
  }
  if (profileLive) console.profileEnd("live-bare");
  u.destroy();

  // The chart exists at its first commit; its live subscription is a passive effect, run after
  // paint: the samples go out once the chart subscribed (a frame and 50 ms was a guess at when).
  let subscribed!: () => void;
  const listening = new Promise<void>((resolve) => (subscribed = resolve));
  const bus = new (class extends LiveBus {
    subscribe(listener: (s: LiveSample) => void) {
      const off = super.subscribe(listener);
      subscribed();
      return off;
    }
  })();
  const root = createRoot(document.getElementById("component")!);
  await new Promise<void>((ready) =>
    root.render(onPage(createElement(LiveBusContext.Provider, { value: bus }, createElement(UPlotChart, { ...props, ...extras, series, follow: true, hidden: new Set<string>(), onZoom() {}, onReset() {}, onReady: ready })))),
  );
  await listening;
  const times: number[] = [];
  if (profileLive) console.profile("live-component");
  for (let k = 0; k < 60; k++) {
    const values = Object.fromEntries(vars.map((v, i) => [v.Id, 50 + i + Math.random()]));
    const t0 = performance.now();
    bus.emit({ t: end + k * 3600, values });
    times.push(performance.now() - t0);
  }
  if (profileLive) console.profileEnd("live-component");
  root.unmount();
  if (median(times) < 0.05) throw new Error(`live samples did not reach the chart (a sample took the component ${median(times)} ms, bare uPlot ${median(bareTimes)} ms)`);
  return { bare: median(bareTimes), component: median(times) };
}

/**
 * What a dashboard page has done before a chart mounts: React hydrating a page's worth of
 * elements and of function components using the hooks the console's components use (useT's
 * context, memo and external store; state, refs, callbacks, effects), so React's mount path is
 * as warm as after a dashboard's hydration — host elements alone left every hook's code cold.
 */
async function hydratedLikeAPage() {
  const el = document.createElement("div");
  document.body.append(el);
  const root = createRoot(el);
  const Texts = createContext("en");
  const noop = () => () => {};
  function Entry({ i }: { i: number }) {
    const language = useContext(Texts);
    const shown = useSyncExternalStore(noop, () => language, () => language);
    const [open, setOpen] = useState(false);
    const box = useRef<HTMLLIElement>(null);
    const label = useMemo(() => `Entry ${i} (${shown})`, [i, shown]);
    const toggle = useCallback(() => setOpen((o) => !o), []);
    useLayoutEffect(() => void box.current, []);
    useEffect(() => void open, [open]);
    return createElement("li", { ref: box, className: "flex items-center gap-2", onClick: toggle }, createElement("span", { className: "h-4 w-4" }), createElement("a", { href: `/x${i}` }, label));
  }
  const rows = Array.from({ length: 150 }, (_, i) => createElement(Entry, { key: i, i }));
  await new Promise<void>((done) => {
    root.render(createElement(Texts.Provider, { value: "en" }, createElement("ul", { ref: () => done() }, rows)));
  });
  root.unmount();
  el.remove();
}

async function run() {
  // The first paint of a fresh page is the cold one: the runner asks for the component's in some
  // pages and for bare uPlot's in others (the second one drawn in a page is already half warm).
  const params = new URLSearchParams(location.search);
  if (params.has("hydrated")) await hydratedLikeAPage();
  // Both kinds start from an idle page. Bare uPlot's measure is synchronous up to its commit (a
  // microtask), so it never waited behind queued tasks; the component's render is a task of
  // React's scheduler and waited behind whatever was queued before it — the warm-up page's
  // passive-effect and unmount work, page-load tasks — charged to the chart (3-16 ms, by marks).
  // A dashboard's chart mounts when its lazy chunk arrives, after hydration's own work.
  await new Promise((idle) => requestIdleCallback(idle, { timeout: 2000 }));
  profileNext = params.has("profile");
  const cold = params.get("first") === "component" ? await component() : await bare();
  const coldDrawn = drawnMs;
  const warmBare: number[] = [];
  const warmComponent: number[] = [];
  // Interleaved, so both see the same machine state.
  for (let i = 0; i < WARM; i++) {
    warmBare.push(await bare());
    warmComponent.push(await component());
  }
  const live = await liveUpdates();
  (window as unknown as { __bench: unknown }).__bench = {
    cold,
    coldDrawn,
    warmBare: median(warmBare),
    warmComponent: median(warmComponent),
    liveBare: live.bare,
    liveComponent: live.component,
  };
}

run().catch((e) => ((window as unknown as { __bench: unknown }).__bench = { error: String(e) }));
