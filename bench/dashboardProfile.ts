// `node bench/dashboardProfile.ts` (after a build; LOGGIA_BUILD_DIR as for the bench): the
// console under bench/dashboard.ts's /dashboard load with --cpu-prof, and its hottest functions
// (self time, then inclusive time of the app's own), to find what a page render spends (issue 15:
// throughput of /dashboard). PROFILE_MS: load time; PROFILE_OUT: where the .cpuprofile goes (open
// it in Chromium's DevTools); PROFILE_COUNT=1: the logger requests a page makes, through a
// counting proxy; PROFILE_HTML: a file for the page's HTML.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startLogger } from "../logger/server.ts";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";
import { adminToken, freePort, signInCookie } from "./stack.ts";
import { saveBenchDashboard } from "./benchDashboard.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const INTERVAL_US = 200;
const LOAD_MS = Number(process.env.PROFILE_MS ?? 8000);
const say = (line: string) => process.stdout.write(`${line}\n`);

let skipMs = 0;
const dataDir = mkdtempSync(join(tmpdir(), "loggia-prof-dash-"));
const profDir = mkdtempSync(join(tmpdir(), "loggia-prof-out-"));
const logger = await startLogger({ port: 0, dataDir, adminPassword: PASSWORD, log: () => {}, simulator: { seed: 1, backfillSec: 3600 } });
// The console talks to the logger through a counting proxy: which requests a page makes.
const counts = new Map<string, number>();
const { createServer, request } = await import("node:http");
const loggerTarget = new URL(logger.url);
const proxy = createServer((req, res) => {
  const key = `${req.method} ${req.url!.split("?")[0]}`;
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const m = /"Method"\s*:\s*"([^"]+)"/.exec(body);
    const k = key + (m ? ` ${m[1]}` : "");
    counts.set(k, (counts.get(k) ?? 0) + 1);
    const out = request({ host: loggerTarget.hostname, port: loggerTarget.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    out.end(body);
  });
});
await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const build = resolve(root, process.env.LOGGIA_BUILD_DIR ?? "build", "server/index.js");
const spawnedAt = performance.now();
const child = spawn(process.execPath, [...CONSOLE_NODE_FLAGS, "--cpu-prof", `--cpu-prof-dir=${profDir}`, `--cpu-prof-interval=${INTERVAL_US}`, join(root, "server/main.ts"), build], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOGGER_URL: process.env.PROFILE_COUNT ? proxyUrl : logger.url, NODE_ENV: "production", SESSION_SECRET: "bench-secret-0123456789abcdefghij" },
  stdio: ["ignore", "ignore", "inherit"],
});
for (let i = 0; ; i++) {
  try {
    await fetch(`${url}/signin`);
    break;
  } catch {
    if (i > 100) throw new Error("console did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}
try {
  const cookie = await signInCookie(url, PASSWORD);
  const token = await adminToken(logger.url, PASSWORD);
  const vars = ((await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { Data: { Id: string; Name: string }[] }).Data;
  const ID = await saveBenchDashboard(logger.url, token, vars);
  const page = `${url}/dashboard?id=${ID}`;
  if (process.env.PROFILE_HTML) (await import("node:fs")).writeFileSync(process.env.PROFILE_HTML, await (await fetch(page, { headers: { Cookie: cookie } })).text());
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const get = () =>
    new Promise<void>((done, fail) => {
      httpGet(page, { agent, headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br, zstd" } }, (r) => {
        r.on("data", () => {});
        r.on("end", () => (r.statusCode === 200 ? done() : fail(new Error(`GET /dashboard: ${r.statusCode}`))));
      }).on("error", fail);
    });
  for (let i = 0; i < 100; i++) await get();
  skipMs = performance.now() - spawnedAt;
  counts.clear();
  let done = 0;
  const until = performance.now() + LOAD_MS;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (performance.now() < until) {
      await get();
      done++;
    }
  }));
  if (process.env.PROFILE_COUNT) for (const [k, c] of [...counts].toSorted((a, b) => b[1] - a[1])) say(`${(c / done).toFixed(3).padStart(8)} per page  ${k}`);
  say(`${done} pages in ${LOAD_MS} ms: ${((done * 1000) / LOAD_MS).toFixed(0)} /s`);
  agent.destroy();
} finally {
  child.kill("SIGINT");
  await new Promise((r) => child.once("exit", r));
  proxy.close();
  await logger.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no profile written");
const out = process.env.PROFILE_OUT ?? join(tmpdir(), "dashboard.cpuprofile");
const text = readFileSync(join(profDir, file), "utf8");
(await import("node:fs")).writeFileSync(out, text);
rmSync(profDir, { recursive: true, force: true });
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const prof = JSON.parse(text) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
// Start-up and warm-up left out: only the samples under the measured load.
const self = new Map<number, number>();
let at = 0;
prof.samples.forEach((id, k) => {
  at += prof.timeDeltas[k] ?? 0;
  // Counted in samples, not in the gaps between them: on a loaded machine a gap holds the time
  // the process waited for a core, charged to whatever ran last.
  if (at / 1000 >= skipMs) self.set(id, (self.get(id) ?? 0) + INTERVAL_US);
});
const byFn = new Map<string, number>();
let total = 0;
for (const n of prof.nodes) {
  const us = self.get(n.id) ?? 0;
  total += us;
  const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/^.*node_modules\//, "nm/").replace(`file://${root}/`, "")}:${n.callFrame.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
// Inclusive time of the app's own functions (the build's server bundle), recursion counted once.
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const incl = new Map<string, number>();
const keyOf = (n: Node) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/^.*node_modules\//, "nm/").replace(`file://${root}/`, "")}:${n.callFrame.lineNumber + 1}`;
const walk = (id: number, seen: Set<string>): number => {
  const n = byId.get(id)!;
  let us = self.get(id) ?? 0;
  const key = keyOf(n);
  const fresh = !seen.has(key);
  if (fresh) seen.add(key);
  for (const c of n.children ?? []) us += walk(c, seen);
  if (fresh) {
    seen.delete(key);
    incl.set(key, (incl.get(key) ?? 0) + us);
  }
  return us;
};
walk(prof.nodes[0]!.id, new Set());
say("inclusive (app bundle and react-router / react-dom server):");
for (const [k, us] of [...incl].filter(([k]) => /build\/server|react-router|react-dom-server|app\//.test(k)).toSorted((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 40))) say(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
say(`profile ${out}: ${(total / 1000).toFixed(0)} ms sampled`);
for (const [k, us] of [...byFn].toSorted((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 40))) say(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
