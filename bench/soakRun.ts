// The soak itself, shared by `npm run bench:soak` (bench/soak.ts) and the CI guard
// (scripts/soak-guard.ts): the built console and the embedded logger as their own processes on
// spare ports with a throwaway DATA_DIR, N kiosk clients and M operators signed in through the
// sign-in form, and both processes' memory sampled through bench/soakProbe.ts (SIGUSR2, no
// inspector). Kiosks keep /live (SSE) open and reload the default dashboard in kiosk mode every
// KIOSK_RELOAD_MS; operators load one page of their round every OPERATOR_THINK_MS.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";
import { LOGGER_NODE_FLAGS } from "../logger/flags.ts";
import { buildIfStale } from "../scripts/build-fresh.ts";
import { freePort, Jar } from "./stack.ts";
import { waitForLine } from "../tests/support/childLine.ts";

const root = resolve(import.meta.dirname, "..");
const ADMIN_PASSWORD = "Soak-Admin-pass-1";
const CLIENT_ID = "loggia-console";
const CLIENT_SECRET = "soak-client-secret-0123456789abcdefghij";
export const KIOSK_RELOAD_MS = 10_000;
export const OPERATOR_THINK_MS = 500;
export const OPERATOR_PAGES = ["/dashboard", "/analytics", "/devices", "/alarming", "/variableOverview", "/log", "/monitor"];

export interface SoakOptions {
  kiosks: number;
  operators: number;
  durationMs: number;
  /** Memory is sampled this often (30 s for long runs). */
  sampleMs: number;
  /** After this, a forced GC gives the "after warm-up" heap figure. */
  warmupMs: number;
  /** Quiet time after the load ends (clients gone) before the final forced GC. */
  idleMs: number;
  /** Heap snapshots of both processes at these offsets from the start (ms). */
  snapshotsAtMs?: number[];
  /** The build to run ("build" as npm start; another folder keeps e2e's build/ untouched). */
  buildDir?: string;
  /** Fixed ports (else free ones): console, logger. */
  ports?: [number, number];
  /** Extra environment for the console (e.g. SOAK_LEAK_KB_PER_S to show the guard fails). */
  consoleEnv?: Record<string, string>;
  keepDataDir?: boolean;
  log?: (line: string) => void;
}

export interface MemSample {
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Entries of the console's caches and stream tables (app/services/diagnostics.server.ts). */
  counts?: Record<string, number>;
}
export interface Phase {
  phase: string;
  t: number;
  console: MemSample;
  logger: MemSample;
}
export interface SoakResult {
  options: SoakOptions;
  samples: { t: number; console: MemSample; logger: MemSample; pages: number }[];
  /** Forced-GC figures: after warm-up, at the end of the load, after the idle time. */
  gc: Phase[];
  pages: number;
  errors: number;
  errorKinds: Record<string, number>;
  latency: { p50: number; p95: number; p99: number; max: number };
  streamEvents: number;
  streamDrops: number;
  /** Streams ended on purpose by the relay (`renew`: the access token ran out) and resumed. */
  streamRenewals?: number;
  /** The largest count each cache reached in the samples. */
  countsMax: Record<string, number>;
  snapshots: string[];
  dataDir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN);

/** A process with the soak probe preloaded: its memory on request, by signal and files. */
class Probed {
  seq = 0;
  readonly child: ChildProcess;
  readonly file: string;
  constructor(child: ChildProcess, file: string) {
    this.child = child;
    this.file = file;
  }
  async ask(command: "mem" | "gc" | "snapshot"): Promise<MemSample & { snapshot?: string }> {
    const seq = ++this.seq;
    writeFileSync(`${this.file}.cmd`, `${command} ${seq}`);
    this.child.kill("SIGUSR2");
    const deadline = Date.now() + (command === "snapshot" ? 120_000 : 15_000);
    while (Date.now() < deadline) {
      await sleep(command === "mem" ? 20 : 100);
      try {
        const answer = JSON.parse(readFileSync(this.file, "utf8"));
        if (answer.seq === seq) {
          if (command !== "mem" && !answer.gcAvailable) throw new Error("the process has no global.gc (--expose-gc missing)");
          return answer;
        }
      } catch (e) {
        if (e instanceof Error && e.message.includes("global.gc")) throw e;
      }
    }
    throw new Error(`no answer to ${command} from pid ${this.child.pid}`);
  }
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const buildDir = o.buildDir ?? "build";
  buildIfStale({ buildDir, log });
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-soak-"));
  const [consolePort, loggerPort] = o.ports ?? [await freePort(), await freePort()];
  const probeFlags = ["--expose-gc", "--import", join(root, "bench", "soakProbe.ts")];
  const children: ChildProcess[] = [];
  const stopAll = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
  };
  process.once("exit", stopAll);
  try {
    // History for more than the pages' longest range (the default dashboard's 1 h): with 10 min,
    // its charts' windows filled up during the first hour of a run, every bucket one more number
    // in each cached answer and remembered page — the console's heap grew 0.5 MB/min (heap
    // snapshots: new numbers under the outage pages and the answer cache, entry counts flat) and
    // settled after ~50 min, a growth no installation that has been running for an hour shows.
    const loggerChild = spawn(process.execPath, [...LOGGER_NODE_FLAGS, ...probeFlags, join(root, "logger/main.ts"), "--port", String(loggerPort), "--data", dataDir, "--backfill", "2h"], {
      cwd: root,
      env: { ...process.env, LOGGER_HOST: "127.0.0.1", ADMIN_PASSWORD, LOGGER_CLIENT_ID: CLIENT_ID, LOGGER_CLIENT_SECRET: CLIENT_SECRET, SOAK_PROBE_FILE: join(dataDir, "logger.mem"), SOAK_PROBE_NAME: "logger" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(loggerChild);
    const loggerUrl = (await waitForLine(loggerChild, /logger listening on (\S+)/, "the logger"))[1]!;
    const consoleChild = spawn(process.execPath, [...CONSOLE_NODE_FLAGS, ...probeFlags, join(root, "server/main.ts"), join(resolve(root, buildDir), "server/index.js")], {
      cwd: root,
      env: {
        ...process.env,
        ...o.consoleEnv,
        NODE_ENV: "production",
        PORT: String(consolePort),
        HOST: "127.0.0.1",
        LOGGER_URL: loggerUrl,
        LOGGER_CLIENT_SECRET: CLIENT_SECRET,
        SESSION_SECRET: "soak-session-secret-0123456789abcdefghij",
        SOAK_PROBE_FILE: join(dataDir, "console.mem"),
        SOAK_PROBE_NAME: "console",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(consoleChild);
    await waitForLine(consoleChild, /http:\/\//, "the console");
    const base = `http://127.0.0.1:${consolePort}`;
    const con = new Probed(consoleChild, join(dataDir, "console.mem"));
    const lgr = new Probed(loggerChild, join(dataDir, "logger.mem"));
    log(`Console ${base} (pid ${consoleChild.pid}, ${CONSOLE_NODE_FLAGS.join(" ")}), logger ${loggerUrl} (pid ${loggerChild.pid}, ${LOGGER_NODE_FLAGS.join(" ")}), data ${dataDir}`);

    // Variables for the kiosks' live stream: the logger's first analog channels.
    const tokenRes = await fetch(`${loggerUrl}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "password", username: "admin", password: ADMIN_PASSWORD }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const vars = ((await (await fetch(`${loggerUrl}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { Data: { Id: string }[] }).Data;
    const liveIds = vars.slice(0, 16).map((v) => v.Id);

    let stopping = false;
    let pages = 0;
    const latencies: number[] = [];
    const errorKinds: Record<string, number> = {};
    const fail = (kind: string) => (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
    let streamEvents = 0;
    let streamDrops = 0;
    let streamRenewals = 0;

    const page = async (jar: Jar, path: string) => {
      const started = performance.now();
      try {
        const res = await fetch(base + path, { headers: { Cookie: jar.header(), Accept: "text/html" }, redirect: "manual" });
        await res.arrayBuffer();
        jar.take(res);
        if (res.status !== 200) fail(`${path.split("?")[0]} ${res.status}`);
        else {
          pages++;
          latencies.push(performance.now() - started);
        }
      } catch (e) {
        if (!stopping) fail(`${path.split("?")[0]} ${(e as Error).message}`);
      }
    };
    const signIn = async (): Promise<Jar> => {
      const jar = new Jar();
      const form = await fetch(`${base}/signin`);
      jar.take(form);
      await form.text();
      const res = await fetch(`${base}/signin`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: jar.header() },
        body: new URLSearchParams({ username: "admin", password: ADMIN_PASSWORD, redirect_uri: "" }),
      });
      await res.arrayBuffer();
      jar.take(res);
      if (res.status !== 302 && res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
      return jar;
    };

    const stream = async (jar: Jar, abort: AbortController) => {
      while (!stopping) {
        let ended = "closed";
        let renew = false;
        try {
          const res = await fetch(`${base}/live?variables=${encodeURIComponent(liveIds.join(","))}`, { headers: { Cookie: jar.header(), Accept: "text/event-stream" }, signal: abort.signal });
          // As a browser does: a reconnect after the access token ran out refreshed it, and the
          // stream's answer carries the new cookie the next page load must present.
          jar.take(res);
          if (res.status !== 200 || !res.body) {
            fail(`/live ${res.status}`);
            await res.body?.cancel();
          } else {
            const decoder = new TextDecoder();
            let buffer = "";
            for await (const chunk of res.body) {
              buffer += decoder.decode(chunk, { stream: true });
              let i: number;
              while ((i = buffer.indexOf("\n\n")) >= 0) {
                if (buffer.startsWith("data:")) streamEvents++;
                else if (buffer.startsWith("event: renew\n")) renew = true;
                buffer = buffer.slice(i + 2);
              }
            }
          }
        } catch (e) {
          ended = (e as Error).message;
        }
        if (stopping) return;
        if (renew && ended === "closed") {
          // The relay's planned end: EventSource comes back after the retry it was given.
          streamRenewals++;
          await sleep(250);
          continue;
        }
        streamDrops++;
        fail(`/live dropped (${ended})`);
        await sleep(2000); // EventSource's retry
      }
    };
    const kiosk = async (jar: Jar) => {
      const abort = new AbortController();
      const live = stream(jar, abort);
      while (!stopping) {
        await page(jar, "/dashboard?kiosk");
        await sleepUnlessStopping(KIOSK_RELOAD_MS);
      }
      abort.abort();
      await live;
    };
    const operator = async (jar: Jar, offset: number) => {
      for (let i = offset; !stopping; i++) {
        await page(jar, OPERATOR_PAGES[i % OPERATOR_PAGES.length]!);
        await sleepUnlessStopping(OPERATOR_THINK_MS);
      }
    };
    let wake: (() => void)[] = [];
    const sleepUnlessStopping = (ms: number) =>
      new Promise<void>((r) => {
        const t = setTimeout(r, ms);
        wake.push(() => {
          clearTimeout(t);
          r();
        });
      });

    let t0 = Date.now();
    const at = () => Date.now() - t0;
    const sample = async () => ({ t: at(), console: await con.ask("mem"), logger: await lgr.ask("mem"), pages });
    const gc: Phase[] = [];
    const snapshots: string[] = [];
    const pageErrors = () => Object.values(errorKinds).reduce((a, b) => a + b, 0);
    const report = (s: SoakResult["samples"][number]) =>
      log(`${(s.t / 1000).toFixed(0).padStart(5)} s  console rss ${mb(s.console.rss)} heap ${mb(s.console.heapUsed)}/${mb(s.console.heapTotal)} ext ${mb(s.console.external)}  logger rss ${mb(s.logger.rss)} heap ${mb(s.logger.heapUsed)}/${mb(s.logger.heapTotal)} ext ${mb(s.logger.external)}  pages ${s.pages} errors ${pageErrors()} drops ${streamDrops}${s.console.counts ? `  counts ${Object.entries(s.console.counts).map(([k, v]) => `${k}=${v}`).join(" ")}` : ""}`);
    // Clients sign in one after the other (as people do; the logger hashes each password), then
    // run until the end. The clock (warm-up, duration) starts once all are signed in.
    const jars: Jar[] = [];
    for (let i = 0; i < o.kiosks + o.operators; i++) jars.push(await signIn());
    log(`${jars.length} clients signed in through /signin in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    t0 = Date.now();
    const samples = [await sample()];
    report(samples[0]!);
    const running = [...jars.slice(0, o.kiosks).map((j) => kiosk(j)), ...jars.slice(o.kiosks).map((j, i) => operator(j, i))];

    const forced = async (phase: string) => {
      const entry = { phase, t: at(), console: await con.ask("gc"), logger: await lgr.ask("gc") };
      gc.push(entry);
      log(`  forced GC (${phase}): console heap ${mb(entry.console.heapUsed)} rss ${mb(entry.console.rss)}, logger heap ${mb(entry.logger.heapUsed)} rss ${mb(entry.logger.rss)}`);
    };
    const pendingSnapshots = [...(o.snapshotsAtMs ?? [])].sort((a, b) => a - b);
    let warmedUp = false;
    // Issue 18 judges a long run's end against its 10th minute: a forced GC there too.
    let tenthMinute = o.durationMs >= 2 * TENTH_MINUTE_MS ? TENTH_MINUTE_MS : Infinity;
    let nextSample = o.sampleMs;
    while (at() < o.durationMs) {
      const nextEvent = Math.min(nextSample, warmedUp ? Infinity : o.warmupMs, tenthMinute, pendingSnapshots[0] ?? Infinity, o.durationMs);
      await sleep(Math.max(0, nextEvent - at()));
      if (!warmedUp && at() >= o.warmupMs) {
        warmedUp = true;
        await forced("after warm-up");
      }
      if (at() >= tenthMinute) {
        tenthMinute = Infinity;
        await forced(AT_TENTH_MINUTE);
      }
      while (pendingSnapshots.length && at() >= pendingSnapshots[0]!) {
        pendingSnapshots.shift();
        for (const p of [con, lgr]) {
          const s = await p.ask("snapshot");
          if (s.snapshot) snapshots.push(s.snapshot);
        }
        log(`  heap snapshots at ${(at() / 1000).toFixed(0)} s: ${snapshots.slice(-2).join(", ")}`);
      }
      if (at() >= nextSample) {
        const s = await sample();
        samples.push(s);
        report(s);
        nextSample += o.sampleMs;
      }
    }
    stopping = true;
    for (const w of wake) w();
    wake = [];
    await Promise.all(running);
    const last = await sample();
    samples.push(last);
    report(last);
    await forced("end of load");
    if (o.idleMs > 0) {
      await sleep(o.idleMs);
      const idle = await sample();
      samples.push(idle);
      report(idle);
      await forced(`after ${Math.round(o.idleMs / 1000)} s idle`);
    }
    const sorted = latencies.toSorted((a, b) => a - b);
    return {
      options: o,
      samples,
      gc,
      pages,
      errors: pageErrors(),
      errorKinds,
      latency: { p50: pct(sorted, 50), p95: pct(sorted, 95), p99: pct(sorted, 99), max: sorted.at(-1) ?? NaN },
      streamEvents,
      streamDrops,
      streamRenewals,
      countsMax: samples.reduce<Record<string, number>>((max, s) => {
        for (const [k, v] of Object.entries(s.console.counts ?? {})) max[k] = Math.max(max[k] ?? 0, v);
        return max;
      }, {}),
      snapshots,
      dataDir,
    };
  } finally {
    stopAll();
    await sleep(500);
    if (!o.keepDataDir && !(o.snapshotsAtMs?.length)) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The reference point of a long run (issue 18: memory at 60 min against 10 min). */
const TENTH_MINUTE_MS = 10 * 60_000;
export const AT_TENTH_MINUTE = "at 10 min";

export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
