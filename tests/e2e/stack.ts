import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../../server/flags.ts";
import { freePort } from "../support/freePort.ts";

// Extra console/logger processes for tests that need a logger of their own (controller mode,
// a logger that goes away) — real processes, like the main web server.
const root = resolve(import.meta.dirname, "../..");

export { freePort };

/** Resolves once `url` answers at all (any status): the process behind it is listening. */
export async function waitFor(url: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`${url} did not come up`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Killed when this worker exits if still running. A test that times out is abandoned where it
 * waits, so its `finally` that would stop the processes it started never runs; Playwright then
 * ends the worker, and without this they would live on (a loaded run left a console and a logger).
 */
export function reapOnExit(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** `node <args>` in the repository with `env` over this process's, its stderr drained, reaped on exit. */
export function runNode(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = reapOnExit(spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] }));
  child.stderr?.resume();
  return child;
}

/** SIGTERM, resolved once the process has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

export interface Logger {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startLogger(opts: { port?: number; controller?: boolean; adminPassword: string; env?: Record<string, string> }): Promise<Logger> {
  const port = opts.port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-extra-"));
  const child = runNode(["logger/main.ts", "--port", String(port), "--data", dataDir], {
    ADMIN_PASSWORD: opts.adminPassword,
    LOGGER_MODE: opts.controller ? "controller" : "service",
    ...opts.env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/rpc/AdminAPI.LoginRequired`);
  return {
    url,
    port,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startConsole(loggerUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = runNode([...CONSOLE_NODE_FLAGS, join("server", "main.ts"), "build/server/index.js"], {
    PORT: String(port),
    LOGGER_URL: loggerUrl,
    NODE_ENV: "production",
    SESSION_SECRET: "e2e-extra-secret-0123456789abcdef",
  });
  const url = `http://localhost:${port}`;
  await waitFor(`${url}/signin`);
  return { url, stop: () => stopChild(child) };
}

export interface OwnStack {
  /** The console's origin and its logger's. */
  url: string;
  loggerUrl: string;
  adminPassword: string;
  /** SIGSTOP / SIGCONT the logger: a hung logger (connections accepted, nothing answered). */
  pauseLogger(): void;
  resumeLogger(): void;
  /** Stops the logger, and starts it again on the same port and data. */
  stopLogger(): Promise<void>;
  startLogger(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A console and an embedded logger of their own, for tests that take the logger away (pause,
 * stop) without touching the run's shared logger. `consoleEnv` goes to the console (e.g.
 * LOGGER_PAGE_DEADLINE_MS). Stop it in `finally`; a worker that exits reaps both anyway.
 */
export async function ownStack(opts: { adminPassword: string; consoleEnv?: Record<string, string> }): Promise<OwnStack> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-own-"));
  const loggerUrl = `http://127.0.0.1:${port}`;
  const runLogger = () => runNode(["logger/main.ts", "--port", String(port), "--data", dataDir], { ADMIN_PASSWORD: opts.adminPassword });
  let logger = runLogger();
  await waitFor(`${loggerUrl}/rpc/AdminAPI.LoginRequired`, 22_500);
  const consolePort = await freePort();
  const console = runNode([...CONSOLE_NODE_FLAGS, join("server", "main.ts"), "build/server/index.js"], {
    PORT: String(consolePort),
    LOGGER_URL: loggerUrl,
    NODE_ENV: "production",
    SESSION_SECRET: "e2e-own-secret-0123456789abcdef",
    ...opts.consoleEnv,
  });
  const url = `http://localhost:${consolePort}`;
  await waitFor(`${url}/signin`);
  let paused = false;
  return {
    url,
    loggerUrl,
    adminPassword: opts.adminPassword,
    pauseLogger: () => {
      paused = true;
      logger.kill("SIGSTOP");
    },
    resumeLogger: () => {
      paused = false;
      logger.kill("SIGCONT");
    },
    stopLogger: async () => {
      if (paused) logger.kill("SIGCONT");
      paused = false;
      await stopChild(logger);
    },
    startLogger: async () => {
      logger = runLogger();
      await waitFor(`${loggerUrl}/rpc/AdminAPI.LoginRequired`, 22_500);
    },
    stop: async () => {
      if (paused) logger.kill("SIGCONT");
      await stopChild(console);
      await stopChild(logger);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
