// What a browser test pays per page load (issue 25), in a new page (a new renderer process) and in
// the same page after about:blank (what the e2e fixtures' kept page does between tests): wall
// time, CPU of the whole machine, forks, and where the CPU went by process kind. A console +
// embedded logger of its own, Debian's headless Chromium as the tests launch it; run it on a quiet
// machine (`npm run build` first). `node bench/page-cost.ts [--loads N] [--paths /signin,/dashboard]`.
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../tests/e2e/chromium.ts";
import { ownStack } from "../tests/e2e/stack.ts";
import { machineTicks } from "../scripts/cpuTime.ts";
import { cpuSec, machineLine } from "./machine.ts";

const { values } = parseArgs({ options: { loads: { type: "string", default: "12" }, paths: { type: "string", default: "/signin,/dashboard" } } });
const LOADS = Number(values.loads);
const PASSWORD = "bench-Admin-pass-1";

/** The machine's busy CPU ticks (1/100 s) and forks since boot. */
function machine(): { busy: number; forks: number } {
  return { busy: machineTicks()!.busy, forks: Number(/^processes (\d+)/m.exec(readFileSync("/proc/stat", "utf8"))![1]) };
}

/** CPU seconds of the live processes by kind (exited ones are not counted: a new page's renderer). */
async function byKind(): Promise<Map<string, number>> {
  const kinds = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      const type = /--type=(\S+)/.exec(cmd)?.[1];
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")); // a renderer may show no command line
      const kind = /chrom|headless/.test(cmd) || /chrom|headless/.test(name) ? `chromium ${type ?? (cmd ? "browser" : "(no command line)")}` : cmd.includes("logger/main") ? "logger" : cmd.includes("server/main") ? "console" : pid === String(process.pid) ? "playwright" : "other";
      kinds.set(kind, (kinds.get(kind) ?? 0) + ((await cpuSec(Number(pid))) ?? 0));
    } catch {
      // gone meanwhile
    }
  }
  return kinds;
}

async function load(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

const stack = await ownStack({ adminPassword: PASSWORD });
const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  const context = await browser.newContext({ baseURL: stack.url });
  const first = await context.newPage();
  await load(first, "/signin");
  const signedIn = await first.request.post("/signin", { form: { username: "admin", password: PASSWORD }, headers: { Origin: stack.url } });
  if (!signedIn.ok()) throw new Error(`sign-in answered ${signedIn.status()}`);
  await first.close();
  console.log(machineLine());
  for (const path of values.paths.split(",")) {
    for (const mode of ["new page", "same page"] as const) {
      // The warm-up's page is the kept one in "same page" mode, so its renderer is alive at both readings.
      const warm = await context.newPage();
      await load(warm, path);
      const kept = mode === "same page" ? warm : null;
      if (kept) await kept.goto("about:blank");
      else await warm.close();
      const [m0, k0, t0] = [machine(), await byKind(), performance.now()];
      for (let i = 0; i < LOADS; i++) {
        const page = kept ?? (await context.newPage());
        await load(page, path);
        if (kept) await page.goto("about:blank");
        else await page.close();
      }
      const [m1, k1, t1] = [machine(), await byKind(), performance.now()];
      await kept?.close();
      const kinds = [...k1].map(([k, v]) => [k, (v - (k0.get(k) ?? 0)) / LOADS] as const).filter(([, v]) => v >= 0.005);
      console.log(
        `${path.padEnd(16)} ${mode.padEnd(9)}  wall ${((t1 - t0) / LOADS).toFixed(0).padStart(4)} ms, CPU ${((m1.busy - m0.busy) / 100 / LOADS).toFixed(2)} s, forks ${((m1.forks - m0.forks) / LOADS).toFixed(1)} per load;` +
          ` by live process: ${kinds.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ")}`,
      );
    }
  }
} finally {
  await browser.close();
  await stack.stop();
}
