import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../support/postgres.ts";
import { runNode, stopChild } from "./stack.ts";

// Each Playwright worker's own console + embedded logger (issue 25): `npm start`
// (scripts/start.ts) on the worker's ports (playwright.config.ts gives them, from the worker's
// parallel index) with a throwaway data folder — and, for the PostgreSQL projects, a throwaway
// PostgreSQL under it. Tests that change global state (login mode, the banner, settings) then
// change only their own worker's, and workers run side by side.

/** What the one web server of earlier runs was started with; extra stacks of a test take it too. */
export const STACK_ENV = {
  ADMIN_PASSWORD: "e2e-Admin-pass-1",
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
  // The fixtures talk to the logger as the console does; on loopback the documented default is
  // accepted (npm start would otherwise generate one in DATA_DIR/.client-secret).
  LOGGER_CLIENT_SECRET: "loggia-console-secret",
  // Notification tests run their SMTP and webhook receivers on 127.0.0.1.
  NOTIFY_ALLOW: "127.0.0.1",
  ACCESS_TOKEN_TTL: "900",
} as const;

export interface WorkerStack {
  stop(): Promise<void>;
}

/** Resolves once nothing listens on `port` any more (a worker before this one may still be stopping its stack). */
async function portFree(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once("error", () => done(false));
      probe.listen(port, () => probe.close(() => done(true)));
    });
    if (free) return;
    if (Date.now() > until) throw new Error(`port ${port} is still in use`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Resolves once the console answers its sign-in page below 500 (its logger is up too). */
async function consoleReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the worker's stack exited while starting:\n${output()}`);
    try {
      const res = await fetch(url, { redirect: "manual" });
      await res.body?.cancel();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the worker's stack did not come up within ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startWorkerStack(opts: { port: number; loggerPort: number; store: "sqlite" | "postgres" }): Promise<WorkerStack> {
  await Promise.all([portFree(opts.port, 20_000), portFree(opts.loggerPort, 20_000)]);
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-"));
  const pg = opts.store === "postgres" ? await startPostgres() : null;
  const child = runNode(["scripts/start.ts"], {
    ...STACK_ENV,
    PORT: String(opts.port),
    LOGGER_PORT: String(opts.loggerPort),
    DATA_DIR: dataDir,
    ...(pg ? { STORE_URL: pg.url, LOGGER_ID: "e2e" } : {}),
  });
  // The last lines it wrote, for the error when it does not come up.
  const tail: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    tail.push(...text.split("\n").filter(Boolean));
    tail.splice(0, tail.length - 40);
  });
  const stop = async () => {
    await stopChild(child);
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await consoleReady(`http://localhost:${opts.port}/signin`, child, () => tail.join("\n"), 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}
