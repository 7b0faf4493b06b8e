// `npm start`: builds the console if needed, starts the embedded logger (unless LOGGER_URL
// points at another one) and the console, prints where to sign in, and stops both on Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";

const root = resolve(import.meta.dirname, "..");
const env = { ...process.env };
const port = Number(env.PORT ?? 3000);
const loggerPort = Number(env.LOGGER_PORT ?? 8081);
const dataDir = resolve(root, env.DATA_DIR ?? "data");
const embedded = !env.LOGGER_URL;
const children: ChildProcess[] = [];
let stopping = false;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const output = join(root, "build", "server", "index.js");
  const sources = Math.max(newestMtime(join(root, "app")), newestMtime(join(root, "public")));
  if (existsSync(output) && statSync(output).mtimeMs >= sources) return;
  console.log("Building the console…");
  const result = spawnSync("react-router", ["build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}

/** A secret that survives restarts, so sessions do too. */
function sessionSecret(): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, ".session-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

function start(name: string, command: string, args: string[], ready: RegExp, childEnv: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolveReady, reject) => {
    const child = spawn(command, args, { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let isReady = false;
    const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let buffer = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          out.write(`[${name}] ${line}\n`);
          if (!isReady && ready.test(line)) {
            isReady = true;
            resolveReady();
          }
        }
      });
    };
    relay(child.stdout!, process.stdout);
    relay(child.stderr!, process.stderr);
    child.on("exit", (code, signal) => {
      if (!isReady) reject(new Error(`${name} exited before it was ready (${signal ?? code})`));
      else if (!stopping) {
        console.error(`${name} stopped unexpectedly (${signal ?? code}); stopping Loggia.`);
        stop(1);
      }
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
  const freshData = embedded && !existsSync(join(dataDir, "logger.db"));
  const secret = sessionSecret();
  const loggerUrl = env.LOGGER_URL ?? `http://127.0.0.1:${loggerPort}`;
  if (embedded) {
    await start("logger", process.execPath, [join(root, "logger", "main.ts")], /logger listening on/, {
      ...env,
      LOGGER_PORT: String(loggerPort),
      DATA_DIR: dataDir,
      // A new installation starts with an hour of simulated history, so charts are not empty.
      ...(freshData && env.SIM !== "off" && !env.BACKFILL ? { BACKFILL: "1h" } : {}),
    });
  }
  await start("console", process.execPath, [...CONSOLE_NODE_FLAGS, join(root, "server", "main.ts"), "build/server/index.js"], /http:\/\//, {
    ...env,
    NODE_ENV: "production",
    PORT: String(port),
    LOGGER_URL: loggerUrl,
    SESSION_SECRET: secret,
  });
  const signIn = env.ADMIN_PASSWORD
    ? `admin / the ADMIN_PASSWORD you set`
    : "admin / admin (you will be asked to choose a new password)";
  console.log(
    [
      "",
      `  Loggia is running:  http://localhost:${port}/`,
      embedded ? `  Embedded logger:    ${loggerUrl}  (data in ${dataDir})` : `  Logger:             ${loggerUrl}`,
      freshData ? `  First sign-in:      ${signIn}` : embedded ? `  Sign in with your account (a new DATA_DIR starts again with admin / admin).` : "",
      "  Stop with Ctrl-C.",
      "",
    ].join("\n"),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
});
