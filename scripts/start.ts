// `npm start`: builds the console if needed, starts the embedded logger (unless LOGGER_URL
// points at another one) and the console, prints where to sign in, and stops both on Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";
import { LOGGER_NODE_FLAGS, loggerEnv as mallocEnv } from "../logger/flags.ts";
import { buildIfStale } from "./build-fresh.ts";

const root = resolve(import.meta.dirname, "..");
const env = { ...process.env };
const port = Number(env.PORT ?? 3000);
const loggerPort = Number(env.LOGGER_PORT ?? 8081);
const dataDir = resolve(root, env.DATA_DIR ?? "data");
const embedded = !env.LOGGER_URL;
const children: ChildProcess[] = [];
let stopping = false;

function buildIfNeeded() {
  try {
    buildIfStale({ verbose: true });
  } catch {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}

/** A random secret made on the first start and kept in DATA_DIR (readable by its owner only). */
function persistedSecret(fileName: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, fileName);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

/** A secret that survives restarts, so sessions do too. */
function sessionSecret(): string {
  return env.SESSION_SECRET || persistedSecret(".session-secret");
}

/**
 * The console's OAuth client secret at the embedded logger: never the published default, which
 * would let anyone who reaches the logger act as the console (and read VNC passwords).
 */
function clientSecret(): string {
  return env.LOGGER_CLIENT_SECRET || persistedSecret(".client-secret");
}

/**
 * The pages that may send requests to the embedded logger: the console's own (PUBLIC_ORIGIN, else
 * what this machine's browsers use) and any LOGGER_ALLOWED_ORIGINS given. The logger refuses
 * every other page (logger/http/origin.ts); the console itself talks to it from its server.
 */
function allowedOrigins(): string {
  const own = env.PUBLIC_ORIGIN ? [env.PUBLIC_ORIGIN.replace(/\/$/, "")] : [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  return [...own, ...(env.LOGGER_ALLOWED_ORIGINS ?? "").split(/[\s,]+/).filter(Boolean)].join(",");
}

/** Waits before the n-th restart of a crashed logger: 1 s, 2 s, 4 s … at most 30 s. */
function restartDelayMs(n: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, n - 1));
}
/** A logger that ran this long before it stopped starts the back-off anew. */
const STABLE_MS = 60_000;

function start(
  name: string,
  command: string,
  args: string[],
  ready: RegExp,
  childEnv: NodeJS.ProcessEnv,
  onCrash: (code: string) => void = (code) => {
    console.error(`${name} stopped unexpectedly (${code}); stopping Loggia.`);
    stop(1);
  },
): Promise<string[]> {
  // The lines up to the ready one: the logger says there whether it created its store.
  return new Promise((resolveReady, reject) => {
    const child = spawn(command, args, { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    child.once("exit", () => children.splice(children.indexOf(child), 1));
    let isReady = false;
    const seen: string[] = [];
    const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let buffer = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          out.write(`[${name}] ${line}\n`);
          if (!isReady) seen.push(line);
          if (!isReady && ready.test(line)) {
            isReady = true;
            resolveReady(seen);
          }
        }
      });
    };
    relay(child.stdout!, process.stdout);
    relay(child.stderr!, process.stderr);
    child.on("exit", (code, signal) => {
      if (!isReady) reject(new Error(`${name} exited before it was ready (${signal ?? code})`));
      else if (!stopping) onCrash(String(signal ?? code));
    });
  });
}

function stop(code: number) {
  if (stopping) return;
  stopping = true;
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (!alive.length) process.exit(code);
  let left = alive.length;
  for (const child of alive) {
    child.once("exit", () => {
      if (--left === 0) process.exit(code);
    });
    child.kill("SIGTERM");
  }
  setTimeout(() => {
    for (const child of alive) child.kill("SIGKILL");
    process.exit(code);
  }, 5000).unref();
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function main() {
  buildIfNeeded();
  let freshData = false;
  let firstPassword: string | null = null;
  const secret = sessionSecret();
  const loggerUrl = env.LOGGER_URL ?? `http://127.0.0.1:${loggerPort}`;
  // The embedded logger and the console share a generated client secret; an external logger
  // has its own, given as LOGGER_CLIENT_SECRET (else the console's default applies).
  const client = embedded ? clientSecret() : env.LOGGER_CLIENT_SECRET;
  if (embedded) {
    const loggerEnv = {
      ...env,
      ...mallocEnv(env),
      LOGGER_PORT: String(loggerPort),
      DATA_DIR: dataDir,
      LOGGER_CLIENT_SECRET: client,
      LOGGER_ALLOWED_ORIGINS: allowedOrigins(),
    };
    // A new installation starts with an hour of simulated history, so charts are not empty. The
    // logger decides "new" (it created its store), not a file here: with STORE_URL there is none.
    const first = { ...loggerEnv, ...(env.SIM !== "off" && !env.BACKFILL ? { BACKFILL_IF_NEW: "1h" } : {}) };
    let crashes = 0;
    let startedAt = Date.now();
    // A crashed logger is started again, sooner the first times; meanwhile the console shows
    // its "logger cannot be reached" page and recovers by itself once the logger is back.
    const restart = (code: string) => {
      if (Date.now() - startedAt > STABLE_MS) crashes = 0;
      const delay = restartDelayMs(++crashes);
      console.error(`[loggia] The embedded logger stopped unexpectedly (${code}); restarting it in ${delay / 1000} s (restart ${crashes}). The console shows its outage page meanwhile.`);
      setTimeout(() => {
        if (stopping) return;
        startedAt = Date.now();
        start("logger", process.execPath, [...LOGGER_NODE_FLAGS, join(root, "logger", "main.ts")], /logger listening on/, loggerEnv, restart).then(
          () => console.log(`[loggia] The embedded logger is running again (${loggerUrl}).`),
          (error: Error) => restart(error.message),
        );
      }, delay).unref();
    };
    const lines = await start("logger", process.execPath, [...LOGGER_NODE_FLAGS, join(root, "logger", "main.ts")], /logger listening on/, first, restart);
    freshData = lines.some((line) => line.startsWith("logger: new store created"));
    firstPassword = lines.map((line) => /^logger: first sign-in: admin \/ (\S+)/.exec(line)?.[1]).find(Boolean) ?? null;
  }
  await start("console", process.execPath, [...CONSOLE_NODE_FLAGS, join(root, "server", "main.ts"), "build/server/index.js"], /http:\/\//, {
    ...env,
    NODE_ENV: "production",
    PORT: String(port),
    LOGGER_URL: loggerUrl,
    SESSION_SECRET: secret,
    ...(client ? { LOGGER_CLIENT_SECRET: client } : {}),
  });
  const signIn = env.ADMIN_PASSWORD
    ? `admin / the ADMIN_PASSWORD you set`
    : `admin / ${firstPassword ?? "the password the logger printed"} (you will be asked to choose a new password)`;
  console.log(
    [
      "",
      `  Loggia is running:  http://localhost:${port}/`,
      embedded ? `  Embedded logger:    ${loggerUrl}  (data in ${dataDir})` : `  Logger:             ${loggerUrl}`,
      freshData ? `  First sign-in:      ${signIn}` : embedded ? `  Sign in with your account (a new DATA_DIR starts again with a new first password for admin).` : "",
      "  Stop with Ctrl-C.",
      "",
    ].join("\n"),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
});
