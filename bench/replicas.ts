// `node bench/replicas.ts` (after `npm run build`): console replicas (issue 17). The page rate of
// one console and of two consoles behind Debian's nginx (round-robin, no stickiness), on this
// machine's cores, with each process's CPU share — consoles, logger, nginx and this load
// generator — so that the scaling per core can be read off. Medians of several rounds.
// Options: --seconds N (per round, default 5), --rounds N (default 5), --clients N (default 8),
// --no-write (leave bench/RESULTS.md alone). Exits 1 only when pages fail.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProxySite, UPSTREAM_HEADER, type ProxySite } from "../tests/support/proxySite.ts";
import { cpuModel } from "./machine.ts";
import { writeSection } from "./replicasReport.ts";
import { freePort, signInCookie } from "./stack.ts";
import { waitForLine } from "../tests/support/childLine.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const PAGE = "/settings";
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg("seconds", 5);
const ROUNDS = arg("rounds", 5);
const CLIENTS = arg("clients", 8);
const say = (line: string) => process.stdout.write(`${line}\n`);

/** CPU time of a process so far (user + system, ms), from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** nginx's master and its workers. */
function nginxPids(master: number): number[] {
  const workers = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(master);
      } catch {
        return false;
      }
    })
    .map(Number);
  return [master, ...workers];
}

async function startLogger(): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "loggia-bench-replicas-"));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, "logger/main.ts"), "--port", String(port), "--data", dir], {
    cwd: root,
    env: { ...process.env, LOGGER_HOST: "127.0.0.1", ADMIN_PASSWORD: PASSWORD },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = (await waitForLine(child, /logger listening on (\S+)/, "the logger"))[1]!;
  return { url, child, dir };
}

interface Round {
  pages: number;
  errors: number;
  rate: number;
  /** Per console, pages it answered. */
  byConsole: number[];
  /** CPU used during the round, in cores (1 = one core busy all the time). */
  cores: { consoles: number[]; logger: number; nginx: number; generator: number };
}

/** CLIENTS closed-loop clients GET PAGE through the proxy for SECONDS. */
async function round(site: ProxySite, cookie: string, loggerPid: number): Promise<Round> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const pids = { consoles: site.pids.consoles, nginx: nginxPids(site.pids.nginx) };
  const cpu0 = { consoles: pids.consoles.map(cpuMs), logger: cpuMs(loggerPid), nginx: pids.nginx.map(cpuMs), self: process.cpuUsage() };
  const byConsole = site.consolePorts.map(() => 0);
  let pages = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  const one = () =>
    new Promise<void>((done) => {
      const req = httpGet(`${site.origin}${PAGE}`, { agent, headers: { Cookie: cookie, "Accept-Encoding": "gzip" } }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 200) pages++;
          else errors++;
          const i = site.replicaOf(res.headers[UPSTREAM_HEADER] as string | undefined);
          if (i >= 0) byConsole[i]!++;
          done();
        });
      });
      req.on("error", () => (errors++, done()));
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const wall = performance.now() - started;
  const self = process.cpuUsage(cpu0.self);
  agent.destroy();
  return {
    pages,
    errors,
    rate: (pages / wall) * 1000,
    byConsole,
    cores: {
      consoles: pids.consoles.map((p, i) => (cpuMs(p) - cpu0.consoles[i]!) / wall),
      logger: (cpuMs(loggerPid) - cpu0.logger) / wall,
      nginx: pids.nginx.reduce((sum, p, i) => sum + (cpuMs(p) - (cpu0.nginx[i] ?? 0)), 0) / wall,
      generator: (self.user + self.system) / 1000 / wall,
    },
  };
}

export interface Setup {
  consoles: number;
  rounds: Round[];
}

async function measure(consoles: number, loggerUrl: string, loggerPid: number): Promise<Setup> {
  const site = await startProxySite({ loggerUrl, consoles, tellUpstream: true, keepalive: true, sessionSecret: "bench-replicas-secret-0123456789abcdef", consoleEnv: () => ({ TRUST_PROXY: "1" }) });
  try {
    const cookie = await signInCookie(site.origin, PASSWORD);
    if (!cookie.includes("loggia_session=")) throw new Error("sign-in through the proxy failed");
    // Warm-up: every console compiles its code paths and fills its caches.
    for (let i = 0; i < 20 * consoles; i++) await (await fetch(`${site.origin}${PAGE}`, { headers: { Cookie: cookie } })).text();
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const result = await round(site, cookie, loggerPid);
      rounds.push(result);
      say(`  ${consoles} console${consoles > 1 ? "s" : ""}, round ${r + 1}: ${result.rate.toFixed(0)} pages/s (${result.errors} errors; per console ${result.byConsole.join(" / ")}); CPU in cores: consoles ${result.cores.consoles.map((c) => c.toFixed(2)).join(" + ")}, logger ${result.cores.logger.toFixed(2)}, nginx ${result.cores.nginx.toFixed(2)}, load generator ${result.cores.generator.toFixed(2)}`);
    }
    return { consoles, rounds };
  } finally {
    await site.stop();
  }
}

async function main() {
  say(`Console replicas: GET ${PAGE} signed in, ${CLIENTS} closed-loop clients through nginx, ${ROUNDS} rounds of ${SECONDS} s per setup`);
  say(`Machine: ${cpuModel()}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the start`);
  const logger = await startLogger();
  const loadStart = loadavg()[0]!;
  try {
    const setups: Setup[] = [];
    for (const n of [1, 2]) setups.push(await measure(n, logger.url, logger.child.pid!));
    const loadEnd = loadavg()[0]!;
    const report = writeSection(setups, { machine: cpuModel(), cores: cpus().length, loadStart, loadEnd, seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS, page: PAGE }, !process.argv.includes("--no-write"));
    say(`\n${report}`);
    const errors = setups.reduce((s, x) => s + x.rounds.reduce((t, r) => t + r.errors, 0), 0);
    const lopsided = setups.some((x) => x.consoles === 2 && x.rounds.some((r) => Math.min(...r.byConsole) < 0.3 * r.pages));
    if (errors) say(`FAIL: ${errors} pages failed`);
    if (lopsided) say("FAIL: one of two consoles answered less than 30 % of a round's pages (no round-robin?)");
    process.exitCode = errors || lopsided ? 1 : 0;
  } finally {
    logger.child.kill("SIGTERM");
    await new Promise((r) => logger.child.once("exit", r));
    rmSync(logger.dir, { recursive: true, force: true });
  }
}

await main();
