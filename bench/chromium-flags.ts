// `node bench/chromium-flags.ts --b="--some-flag --other" [--a="..."] [--paths /dashboard,/signin] [--rounds 8] [--nojs]`
// (after `npm run build`): whether a Chromium flag makes the browser tests' page loads cheaper.
// Two browsers launched as the tests launch them (tests/e2e/chromium.ts), A with --a's flags
// added and B with --b's, against one console + embedded logger of their own; each loads the
// paths three times per round in its one kept page (about:blank between, as the fixtures do),
// the two in turn, the order swapped every round, so that the machine's drift falls on both.
// Figure: the CPU of each browser's own process tree (its renderers and helpers, with the ones
// that ended) per load; medians of the rounds and their ratio. No target: it informs a choice.
import { chromium, type Page } from "@playwright/test";
import { parseArgs } from "node:util";
import { treeSeconds } from "../scripts/cpuTime.ts";
import { CHROMIUM_LAUNCH } from "../tests/e2e/chromium.ts";
import { ownStack } from "../tests/e2e/stack.ts";
import { machineLine, median } from "./machine.ts";

const { values } = parseArgs({ options: { a: { type: "string", default: "" }, b: { type: "string", default: "" }, paths: { type: "string", default: "/dashboard,/signin" }, rounds: { type: "string", default: "8" }, nojs: { type: "boolean", default: false } } });
const PASSWORD = "bench-Admin-pass-1";
const PATHS = values.paths.split(",");
const LOADS_PER_PATH = 3;
const js = !values.nojs;

console.log(machineLine());
const stack = await ownStack({ adminPassword: PASSWORD });

async function browserWith(flags: string) {
  const server = await chromium.launchServer({ ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, ...flags.split(" ").filter(Boolean)] });
  const browser = await chromium.connect(server.wsEndpoint());
  const context = await browser.newContext({ baseURL: stack.url, javaScriptEnabled: js });
  const page = await context.newPage();
  const signIn = await page.request.post("/signin", { form: { username: "admin", password: PASSWORD }, headers: { Origin: stack.url } });
  if (!signIn.ok()) throw new Error(`sign-in answered ${signIn.status()}`);
  return { flags, server, browser, page, pid: server.process().pid!, perLoad: [] as number[] };
}

async function round(page: Page) {
  for (const path of PATHS) {
    for (let i = 0; i < LOADS_PER_PATH; i++) {
      await page.goto(path);
      if (js) await page.waitForFunction(() => !("__reactRouterContext" in window) || document.documentElement.dataset.hydrated === "true");
      await page.goto("about:blank");
    }
  }
}

const browsers = [await browserWith(values.a), await browserWith(values.b)];
try {
  for (const b of browsers) await round(b.page); // caches filled, code compiled
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const b of r % 2 ? browsers.toReversed() : browsers) {
      const before = treeSeconds(b.pid)!;
      await round(b.page);
      b.perLoad.push((treeSeconds(b.pid)! - before) / (PATHS.length * LOADS_PER_PATH));
    }
  }
} finally {
  for (const b of browsers) await b.browser.close().catch(() => {});
  for (const b of browsers) await b.server.close().catch(() => {});
  await stack.stop();
}
const [A, B] = browsers as [(typeof browsers)[0], (typeof browsers)[0]];
for (const [name, b] of [["A", A], ["B", B]] as const) {
  console.log(`${name} [${b.flags || "as the tests launch it"}]: ${median(b.perLoad).toFixed(3)} CPU-s a load (median of ${b.perLoad.length}; ${b.perLoad.map((x) => x.toFixed(2)).join(" ")})`);
}
console.log(`B / A: ${(median(B.perLoad) / median(A.perLoad)).toFixed(3)} (${PATHS.join(", ")}, ${js ? "with" : "without"} JavaScript)`);
console.log(machineLine());
