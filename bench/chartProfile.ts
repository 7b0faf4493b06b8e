// `node bench/chartProfile.ts [pages]`: where the chart's cold first paint goes, against bare
// uPlot's (issue 15). Fresh pages of bench/chart.html as bench/dashboard.ts opens them (after a
// page's worth of React), the cold paint alone in a CPU profile (console.profile in the page,
// collected over CDP at a 50 µs sampling interval); prints self time per function, summed over the
// pages of each kind, and what only the component spends. `--live`: the 60 live updates instead
// (bare uPlot's and the component's, in the same pages).
import { existsSync } from "node:fs";
import { CHROMIUM_LAUNCH } from "../tests/e2e/chromium.ts";
import { startChartPage } from "./chartPage.ts";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; positionTicks?: { line: number; ticks: number }[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const LIVE = process.argv.includes("--live");
const args = process.argv.slice(2).filter((a) => a !== "--live");
const PAGES = Number(args[0] ?? 15);
/** A function name: also print its samples per source line (of the code as served). */
const LINES_OF = args[1];
const chromiumPath = CHROMIUM_LAUNCH.executablePath;
if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}`);
const { chromium } = await import("playwright-core");
const chartPage = await startChartPage();
const browser = await chromium.launch(CHROMIUM_LAUNCH);

/** Self time (ms) per function, summed over profiles. */
function selfTimes(profiles: Profile[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of profiles) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const file = f.url.split("?")[0]!.split("/").slice(-2).join("/");
      const key = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
      out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    });
  }
  return out;
}

try {
  const profiles: Record<"component" | "bare", Profile[]> = { component: [], bare: [] };
  for (let i = 0; i < PAGES * (LIVE ? 1 : 2); i++) {
    const kind = i % 2 === 0 ? "component" : "bare";
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    // The page's profiles are titled: "cold", or "live-bare" and "live-component".
    const wanted = LIVE ? 2 : 1;
    const done = new Promise<void>((resolve) =>
      cdp.on("Profiler.consoleProfileFinished", (e) => {
        profiles[e.title === "live-bare" || (e.title === "cold" && kind === "bare") ? "bare" : "component"].push(e.profile as unknown as Profile);
        if (profiles.bare.length + profiles.component.length === (i + 1) * wanted) resolve();
      }),
    );
    await page.goto(`${chartPage.url}?first=${kind}&hydrated&${LIVE ? "profile-live" : "profile"}`);
    await done;
    await context.close();
  }
  const component = selfTimes(profiles.component);
  const bare = selfTimes(profiles.bare);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const per = (ms: number) => (ms / PAGES).toFixed(2).padStart(7);
  console.log(`${LIVE ? "60 live updates" : "Cold paint"}, profiled time per page (mean of ${PAGES}): component ${per(total(component))} ms, bare uPlot ${per(total(bare))} ms`);
  console.log("\nWhere the component spends more (ms per page: component, bare, difference):");
  const keys = new Set([...component.keys(), ...bare.keys()]);
  const diffs = [...keys].map((k) => [k, component.get(k) ?? 0, bare.get(k) ?? 0] as const).sort((a, b) => b[1] - b[2] - (a[1] - a[2]));
  for (const [k, c, b] of diffs.slice(0, 30)) console.log(`${per(c)} ${per(b)} ${per(c - b)}  ${k}`);
  if (LINES_OF) {
    const ticks = new Map<number, number>();
    for (const p of profiles.component) for (const n of p.nodes) if (n.callFrame.functionName === LINES_OF) for (const t of n.positionTicks ?? []) ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
    console.log(`\nSamples of ${LINES_OF} per line (component pages):`);
    for (const [line, n] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  line ${line}: ${n}`);
  }
} finally {
  await browser.close();
  await chartPage.close();
}
