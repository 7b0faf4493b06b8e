// `node bench/ws.ts [seconds]` (default 30): the live WebSocket under load. The embedded logger
// runs as its own process (so its CPU time is its own, from /proc) with the simulated bench at
// 128 analog channels × 10 Hz; 20 clients, each signed in as a Viewer of its own, subscribe to
// those 128 variables at IntervalMs 100.
//
// Targets:
// * no sample lost: every client receives every sample of every variable exactly once. A
//   sample is lost when, for one client and one variable, the sample timestamps it received
//   (Timestamps, ExtendedAnswer) skip a 100-ms step between its first and its last frame, when
//   the logger reports a Dropped count, or when a client's last sample is older than 500 ms at
//   the end. A 100-ms interval "arrives" exactly when its sample does.
// * p99 publish delay < 100 ms: receipt of a frame minus the moment the logger acquired the
//   oldest value in it (Acquired, the simulator's commit; both clocks are this machine's).
//   Also printed, no target: the age of the oldest sample (receipt minus its sample time),
//   which adds the simulator's own batching (100-ms ticks) to the delay.
// Figure without a target: the logger's CPU time per 1,000 values published (utime + stime of
// the logger process over the run), and the same with the idle logger's CPU time taken off.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import { z } from "zod";
import { waitForLine } from "../tests/support/childLine.ts";
import { addUser } from "../tests/unit/logger/helpers.ts";

const root = join(import.meta.dirname, "..");
const SECONDS = Number(process.argv[2] ?? 30);
if (!(SECONDS > 0)) throw new Error(`Duration must be a positive number of seconds, not ${process.argv[2]}`);
const CLIENTS = 20;
const CHANNELS = 128;
const RATE_HZ = 10;
const INTERVAL_MS = 100;
const IDLE_SECONDS = 5;
const DELAY_TARGET_MS = 100;
const PASSWORD = "Bench-Pass-1!";
const CLIENT = { id: "loggia-console", secret: "loggia-console-secret" };
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TokenAnswer = z.object({ access_token: z.string() });
const VariablesAnswer = z.object({ Data: z.array(z.object({ Id: z.string(), Name: z.string(), DataFormat: z.string(), Direction: z.string(), SampleRateHz: z.number() })) });
const Item = z.object({
  _id: z.string(),
  Id: z.string(),
  State: z.string(),
  Values: z.array(z.number()),
  New: z.number().int(),
  Dropped: z.number().int(),
  Timestamps: z.array(z.number()),
  Acquired: z.number().nullable(),
});
const Header = z.tuple([z.literal(""), z.number(), z.number(), z.union([z.number(), z.string()]), z.literal("")]);

/** CPU time of a process so far (user + system, ms), from /proc (Linux; 100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return `${m?.[1] ?? cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  } catch {
    return `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  }
}

const pct = (xs: number[], p: number) => (xs.length ? xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : Number.NaN);

function frame(msgType: number, workerType: number, workerId: number, payload: unknown): Buffer {
  const header = Buffer.from(JSON.stringify(["", msgType, workerType, workerId, ""]));
  const head = Buffer.alloc(3);
  head.writeUInt16LE(header.length, 1);
  return Buffer.concat([head, header, Buffer.from(JSON.stringify(payload))]);
}

function decode(raw: Buffer): { msgType: number; payload: unknown } {
  if (raw[0] !== 0) throw new Error("frame does not start with 0x00");
  const hl = raw.readUInt16LE(1);
  const header = Header.parse(JSON.parse(raw.toString("utf8", 3, 3 + hl)));
  return { msgType: header[1], payload: JSON.parse(raw.toString("utf8", 3 + hl)) };
}

type ClientStats = {
  frames: number;
  values: number;
  lost: number;
  twice: number;
  dropped: number;
  errors: string[];
  last: Map<string, number>;
  delays: number[];
  ages: number[];
  measuring: boolean;
};

async function startLogger(dataDir: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, "logger", "main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      LOGGER_PORT: "0",
      LOGGER_HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      SIM: "on",
      SIM_BENCH_CHANNELS: String(CHANNELS),
      SIM_BENCH_RATE_HZ: String(RATE_HZ),
      BACKFILL: "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = (await waitForLine(child, /logger listening on (http:\/\/\S+)/, "the logger"))[1]!;
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-bench-ws-"));
  say(`CPU: ${cpuModel()}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (1, 5, 15 min)`);
  say(`Logger: simulated bench ${CHANNELS} analog channels × ${RATE_HZ} Hz; ${CLIENTS} clients × ${CHANNELS} variables at IntervalMs ${INTERVAL_MS}, ${SECONDS} s`);
  const logger = await startLogger(dataDir);
  const sockets: WebSocket[] = [];
  const missed: string[] = [];
  try {
    const tokenRes = await fetch(`${logger.url}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "password", username: "admin", password: PASSWORD }).toString(),
    });
    const token = TokenAnswer.parse(await tokenRes.json()).access_token;
    const vars = VariablesAnswer.parse(await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data;
    const analog = vars.filter((v) => v.Direction === "I" && v.DataFormat !== "BOOL" && v.SampleRateHz === RATE_HZ);
    if (analog.length !== CHANNELS) throw new Error(`expected ${CHANNELS} analog bench channels at ${RATE_HZ} Hz, found ${analog.length}`);
    const ids = analog.map((v) => v.Id);

    await sleep(1000);
    const idle0 = cpuMs(logger.pid);
    const idleT0 = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const idleMsPerSec = (cpuMs(logger.pid) - idle0) / ((performance.now() - idleT0) / 1000);

    const stats: ClientStats[] = [];
    // One user per client, as 20 operators' screens would be: a user may hold 8 live connections
    // (logger/api/data/live-caps.ts), and sockets past that are closed before their first frame.
    const tokens: string[] = [];
    for (let c = 0; c < CLIENTS; c++) tokens.push((await addUser(logger.url, token, `bench-viewer-${c}`, "Viewer", PASSWORD)).token);
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const wsUrl = `${logger.url.replace(/^http/, "ws")}/ws?apitoken=${encodeURIComponent(tokens[c]!)}`;
        const s: ClientStats = { frames: 0, values: 0, lost: 0, twice: 0, dropped: 0, errors: [], last: new Map(), delays: [], ages: [], measuring: false };
        stats.push(s);
        const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
        sockets.push(ws);
        await new Promise<void>((resolve, reject) => {
          ws.once("open", () => resolve());
          ws.once("error", reject);
        });
        const first = new Promise<void>((resolve, reject) => {
          // A socket the logger closes before its first frame (a cap, a refused token) ends the bench with its reason.
          ws.once("close", (code, reason) => reject(new Error(`client ${c + 1}: the logger closed the WebSocket (${code} ${reason.toString()}) before its first frame`)));
          ws.on("message", (data) => {
            const at = Date.now();
            const f = decode(data as Buffer);
            if (f.msgType !== 2) {
              s.errors.push(JSON.stringify(f.payload).slice(0, 200));
              return;
            }
            const items = z.array(Item).parse(f.payload);
            resolve();
            if (!s.measuring) {
              // The frames before the run only set where each variable's samples start.
              for (const it of items) if (it.Timestamps.length) s.last.set(it.Id, it.Timestamps.at(-1)!);
              return;
            }
            s.frames++;
            let acquired = Infinity;
            let oldest = Infinity;
            for (const it of items) {
              s.dropped += it.Dropped;
              if (it.Acquired !== null) acquired = Math.min(acquired, it.Acquired);
              const fresh = it.Timestamps.slice(it.Timestamps.length - it.New);
              s.values += fresh.length;
              let prev = s.last.get(it.Id);
              for (const t of fresh) {
                oldest = Math.min(oldest, t);
                if (prev !== undefined) {
                  const step = Math.round((t - prev) / INTERVAL_MS);
                  if (step <= 0) s.twice++;
                  else s.lost += step - 1;
                }
                prev = t;
              }
              if (prev !== undefined) s.last.set(it.Id, prev);
            }
            if (Number.isFinite(acquired)) s.delays.push(at - acquired);
            if (Number.isFinite(oldest)) s.ages.push(at - oldest);
          });
        });
        ws.send(frame(1, 2, c + 1, { IntervalMs: INTERVAL_MS, VIDs: ids, ExtendedAnswer: true, OnValueChanged: false, Precision: -1 }));
        await first;
      }),
    );

    const cpu0 = cpuMs(logger.pid);
    const own0 = process.cpuUsage();
    // The clients' own lag is part of every delay measured here: it is printed beside it.
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const t0 = performance.now();
    for (const s of stats) s.measuring = true;
    await sleep(SECONDS * 1000);
    for (const s of stats) s.measuring = false;
    const cpu = cpuMs(logger.pid) - cpu0;
    lag.disable();
    const own = process.cpuUsage(own0);
    const elapsed = (performance.now() - t0) / 1000;
    const end = Date.now();
    for (const ws of sockets) ws.close();

    const frames = stats.map((s) => s.frames);
    const values = stats.reduce((n, s) => n + s.values, 0);
    const lost = stats.reduce((n, s) => n + s.lost, 0);
    const twice = stats.reduce((n, s) => n + s.twice, 0);
    const dropped = stats.reduce((n, s) => n + s.dropped, 0);
    // A client whose newest sample is old at the end lost the tail of the run.
    let stale = 0;
    for (const s of stats) for (const id of ids) if (end - (s.last.get(id) ?? 0) > 500) stale++;
    const errors = stats.flatMap((s) => s.errors);
    const delays = stats.flatMap((s) => s.delays);
    const ages = stats.flatMap((s) => s.ages);
    const expectedValues = CLIENTS * CHANNELS * RATE_HZ * elapsed;

    say(`Frames per client: min ${Math.min(...frames)}, max ${Math.max(...frames)} (${(frames.reduce((a, b) => a + b, 0) / CLIENTS / elapsed).toFixed(2)} per s; ${(1000 / INTERVAL_MS).toFixed(0)} per s asked)`);
    say(`Values received: ${values.toLocaleString("en")} (${((values / expectedValues) * 100).toFixed(1)} % of ${CLIENTS} × ${CHANNELS} × ${RATE_HZ} Hz × ${elapsed.toFixed(1)} s)`);
    const noLoss = lost === 0 && twice === 0 && dropped === 0 && stale === 0 && errors.length === 0;
    say(`Samples lost: ${lost} missing, ${twice} twice, ${dropped} Dropped by the logger, ${stale} variables stale at the end, ${errors.length} error frames (target 0) ${noLoss ? "PASS" : "FAIL"}`);
    if (errors.length) say(`  first error: ${errors[0]}`);
    if (!noLoss) missed.push("no sample lost");
    const p99 = pct(delays, 99);
    say(`Publish delay (receipt − acquisition): p50 ${pct(delays, 50)} ms, p99 ${p99} ms, max ${Math.max(...delays)} ms over ${delays.length} frames (target p99 < ${DELAY_TARGET_MS} ms) ${p99 < DELAY_TARGET_MS ? "PASS" : "FAIL"}`);
    if (!(p99 < DELAY_TARGET_MS)) missed.push(`p99 publish delay < ${DELAY_TARGET_MS} ms`);
    say(`Clients' process (all ${CLIENTS} in this one): ${((own.user + own.system) / 1000 / elapsed / 10).toFixed(1)} % of one core, event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);
    say(`Sample age at receipt (receipt − sample time, incl. the simulator's 100-ms batches): p50 ${pct(ages, 50)} ms, p99 ${pct(ages, 99)} ms`);
    const perK = cpu / (values / 1000);
    const wsShare = (cpu - idleMsPerSec * elapsed) / (values / 1000);
    say(`Logger CPU: ${cpu} ms in ${elapsed.toFixed(1)} s (${((cpu / elapsed / 10)).toFixed(1)} % of one core; idle ${(idleMsPerSec / 10).toFixed(1)} %) = ${perK.toFixed(3)} ms per 1,000 values published, ${wsShare.toFixed(3)} ms with the idle logger's share taken off (no target)`);
    say(`Load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    for (const ws of sockets) ws.terminate();
    await logger.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  say(missed.length ? `Targets missed: ${missed.join("; ")}` : "All live WebSocket targets met.");
  process.exit(missed.length ? 1 : 0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
