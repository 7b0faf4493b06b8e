import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startLogger } from "../../../logger/server.ts";
import type { LoggerOptions } from "../../../logger/server.ts";

export const ADMIN_PASSWORD = "Adm1n-Secret!";
export const CLIENT = { id: "loggia-console", secret: "loggia-console-secret" };
export const API = "GI.system/UserManagementAPI";

export type TestLogger = {
  url: string;
  dataDir: string;
  lines: string[];
  /** admin's generated first password, when this start created the store without one given. */
  initialAdminPassword: string | null;
  close(): Promise<void>;
  stop(): Promise<void>;
};

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "loggia-logger-"));
}

export async function start(opts: Partial<LoggerOptions> = {}): Promise<TestLogger> {
  const dataDir = opts.dataDir ?? tempDir();
  const lines: string[] = [];
  const logger = await startLogger({ port: 0, log: (l) => lines.push(l), ...opts, dataDir }).catch((err: unknown) => {
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    url: logger.url,
    dataDir,
    lines,
    initialAdminPassword: logger.initialAdminPassword,
    close: logger.close,
    stop: async () => {
      await logger.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A logger for a group of tests: started with `opts` (admin's password ADMIN_PASSWORD unless
 * given), and admin's access token — the set-up most logger test files begin with.
 */
export async function startWithAdmin(opts: Partial<LoggerOptions> = {}): Promise<{ lg: TestLogger; admin: string }> {
  const lg = await start({ adminPassword: ADMIN_PASSWORD, ...opts });
  try {
    return { lg, admin: (await login(lg.url, "admin", opts.adminPassword ?? ADMIN_PASSWORD)).access };
  } catch (err) {
    await lg.stop();
    throw err;
  }
}

/** startWithAdmin() and a Viewer's access token ("vera"): the set-up of the files that try what a role may not do. */
export async function startWithAdminAndViewer(opts: Partial<LoggerOptions> = {}): Promise<{ lg: TestLogger; admin: string; viewer: string }> {
  const { lg, admin } = await startWithAdmin(opts);
  try {
    return { lg, admin, viewer: (await addUser(lg.url, admin, "vera", "Viewer")).token };
  } catch (err) {
    await lg.stop();
    throw err;
  }
}

export const LOGGER_MAIN = fileURLToPath(new URL("../../../logger/main.ts", import.meta.url));

/** logger/main.ts in a process of its own, as an operator starts it, with its output collected. */
export function runLoggerMain(args: string[], env: Record<string, string> = {}) {
  // process.execPath is the Node 24 that runs vitest (npx puts it first on PATH).
  const child = spawn(process.execPath, [LOGGER_MAIN, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

export type Answer = { status: number; body: any; headers: Headers };

export async function rpc(base: string, method: string, params?: unknown, token?: string, raw?: string): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}/rpc/${method}`, {
    method: "POST",
    headers,
    body: raw ?? (params === undefined ? undefined : JSON.stringify(params)),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function tokenRequest(
  base: string,
  form: Record<string, string>,
  client: { id: string; secret: string } | null = CLIENT,
): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (client) headers.Authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
  const res = await fetch(`${base}/token`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function login(base: string, username: string, password: string): Promise<{ access: string; refresh: string }> {
  const res = await tokenRequest(base, { grant_type: "password", username, password });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
  return { access: res.body.access_token, refresh: res.body.refresh_token };
}

export async function verify(base: string, token?: string): Promise<Answer> {
  const res = await fetch(`${base}/verify`, {
    method: "POST",
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

// Adds a user with the named role and returns its ID and an access token.
export async function addUser(
  base: string,
  adminToken: string,
  username: string,
  roleName: string,
  password = "user-pass-123",
): Promise<{ id: number; token: string }> {
  const roles = await rpc(base, `${API}.GetRoles`, {}, adminToken);
  const role = roles.body.Roles.find((r: { Name: string }) => r.Name === roleName);
  if (!role) throw new Error(`no role ${roleName}`);
  // Not flagged for a password change: such a token would be good for nothing else.
  const added = await rpc(base, `${API}.AddUser`, { User: { Username: username, Role: role.ID, MustChangePassword: false }, Password: password }, adminToken);
  if (added.status !== 200) throw new Error(`AddUser failed: ${JSON.stringify(added.body)}`);
  const { access } = await login(base, username, password);
  return { id: added.body.ID, token: access };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Until the sources of `variables` (the simulated bench's by default) on the logger at `url` have
 * `seconds` of history: the simulator acquires in real time, so this waits on the clock. Only the
 * sources a test reads: the simulated weather station drops its connection by the clock (up to two
 * minutes in one ten-minute window of six, logger/sim/rig.ts), so a logger started in a drop has no
 * weather history for a while — waiting for every source failed a run that read only the bench. A
 * deadline, not a count of polls, and an error that says what the sources had; a hook that calls
 * it needs more than Vitest's 10 s for hooks on a loaded 2-core machine (HISTORY_HOOK_MS).
 */
export async function waitForHistory(url: string, token: string, seconds: number, { variables = ["Oil temperature"], timeoutMs = 30_000 } = {}): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  const online = ((await (await fetch(`${url}/online/structure/variables`, { headers })).json()) as { Data: { Name: string; SourceId: string }[] }).Data;
  const wanted = new Set(
    variables.map((name) => {
      const found = online.find((v) => v.Name === name);
      if (!found) throw new Error(`waitForHistory: the logger has no variable named ${name}`);
      return found.SourceId;
    }),
  );
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/history/structure/sources`, { headers });
    const had = ((await res.json()) as { Data: { Id: string; AvailableTimeSec: number }[] }).Data.filter((s) => wanted.has(s.Id));
    if (had.length === wanted.size && had.every((s) => s.AvailableTimeSec >= seconds)) return;
    if (Date.now() > until) throw new Error(`the sources of ${variables.join(", ")} did not reach ${seconds} s of history within ${timeoutMs / 1000} s (they had ${had.map((s) => s.AvailableTimeSec).join(", ") || "no source"} s)`);
    await sleep(50);
  }
}

/** Time for a hook that starts a logger and waits for its history (waitForHistory). */
export const HISTORY_HOOK_MS = 45_000;

/**
 * How long each thread of process `pid` has waited for a core, ready to run (ms, from
 * /proc/<pid>/task/<tid>/schedstat; empty where the kernel does not keep it).
 */
function runQueueWaits(pid: number): Map<string, number> {
  const waits = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      waits.set(tid, Number(fields[1]) / 1e6);
    }
  } catch {
    // Not Linux, no schedstat, or the process ended: nothing known.
  }
  return waits;
}

/**
 * Waits `ms` and says how long the given processes waited for a core meanwhile (ms): for each,
 * the longest any of its threads waited, summed over the processes — time a loaded machine took
 * from work that runs one after the other (a logger's write, then the PostgreSQL backend that
 * commits it), which a bound on their latency adds rather than failing for other processes' work.
 */
export async function waitedForCore(pids: number[], ms: number): Promise<number> {
  const waited = coreWaitMeter(pids);
  await sleep(ms);
  return waited();
}

/** As waitedForCore, from now until each call of the function it returns (default: this process). */
export function coreWaitMeter(pids: number[] = [process.pid]): () => number {
  const before = pids.map(runQueueWaits);
  return () => {
    let total = 0;
    pids.forEach((pid, i) => {
      let most = 0;
      for (const [tid, waited] of runQueueWaits(pid)) most = Math.max(most, waited - (before[i]!.get(tid) ?? 0));
      total += most;
    });
    return total;
  };
}

/** The server processes of PostgreSQL's connections named `applicationName` (none without `url`). */
export async function pgBackendPids(url: string | undefined, applicationName: string): Promise<number[]> {
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [applicationName]);
    return res.rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * The longest a one-row commit to PostgreSQL took while `ms` passed (0 without `url`): how long
 * the store itself took to make a row durable just then — on a loaded machine a commit waits for
 * the disk behind the other suites' writes, which is not the logger's doing either.
 */
export async function longestCommit(url: string | undefined, ms: number): Promise<number> {
  if (!url) {
    await sleep(ms);
    return 0;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const table = `commit_probe_${process.pid}_${Date.now()}`;
  try {
    await client.query(`CREATE TABLE ${table} (at bigint)`);
    let longest = 0;
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const started = Date.now();
      await client.query(`INSERT INTO ${table} VALUES ($1)`, [started]);
      longest = Math.max(longest, Date.now() - started);
      await sleep(20);
    }
    return longest;
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.end();
  }
}

/**
 * The longest the event loop went without a turn while `work` ran, in CPU time of this thread:
 * a wall-clock gap would also count the time other processes of a loaded machine held the core
 * (350–410 ms seen against 250 ms of work-free gaps), which is not the logger's doing.
 * `rank` 1 is the longest, 2 the second longest, …
 */
export async function longestStall(work: () => Promise<unknown>, rank = 1): Promise<number> {
  const longest: number[] = [];
  let last = process.threadCpuUsage();
  const timer = setInterval(() => {
    const used = process.threadCpuUsage(last);
    const ms = (used.user + used.system) / 1000;
    if (longest.length < rank || ms > longest[rank - 1]!) {
      longest.push(ms);
      longest.sort((a, b) => b - a);
      longest.length = Math.min(longest.length, rank);
    }
    last = process.threadCpuUsage();
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest[rank - 1] ?? 0;
}
