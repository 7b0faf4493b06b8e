// The logger under test: the one at CONFORMANCE_URL, or else the embedded logger started here
// as a child process (Node running logger/main.ts) on a spare port with a fresh DATA_DIR,
// stopped and removed again afterwards. Only logger/main.ts's documented start-up knobs are
// used (LOGGER_PORT, LOGGER_HOST, DATA_DIR, ADMIN_PASSWORD, SIM, BACKFILL, ACCESS_TOKEN_TTL);
// nothing is imported.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface Target {
  url: string;
  user: string;
  password: string;
  clientId: string;
  /** False when CONFORMANCE_IMPORT=off (a production logger): no new source is created. */
  importEnabled: boolean;
  /** False when CONFORMANCE_WRITE=off: no output is written. */
  writeEnabled: boolean;
  /** An output variable Id to write (CONFORMANCE_WRITE_VARIABLE), else the suite picks one. */
  writeVariable?: string;
  /** True for the logger this suite started itself. */
  embedded: boolean;
  /** The embedded logger's last output lines, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, "../..");
const MAIN = join(ROOT, "logger", "main.ts");

export async function startTarget(): Promise<Target> {
  const env = process.env;
  const common = {
    clientId: env.CONFORMANCE_CLIENT_ID || "gibench",
    importEnabled: !/^(off|0|false|no)$/i.test(env.CONFORMANCE_IMPORT ?? ""),
    writeEnabled: !/^(off|0|false|no)$/i.test(env.CONFORMANCE_WRITE ?? ""),
    writeVariable: env.CONFORMANCE_WRITE_VARIABLE || undefined,
  };
  if (env.CONFORMANCE_URL) {
    return {
      ...common,
      url: env.CONFORMANCE_URL.replace(/\/+$/, ""),
      user: env.CONFORMANCE_USER ?? "admin",
      password: env.CONFORMANCE_PASSWORD ?? "",
      embedded: false,
      log: () => "",
      stop: async () => {},
    };
  }
  return startEmbedded(common);
}

async function sparePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Another embedded logger with other start-up knobs (e.g. ACCESS_TOKEN_TTL), for a check that needs them. */
export function startEmbeddedWith(env: Record<string, string>): Promise<Target> {
  // On PostgreSQL (npm run test:pg) a LOGGER_ID of its own: the suite's logger holds the lease of
  // the suite's id, and a second logger under it is refused at start.
  const id: Record<string, string> = process.env.LOGGER_ID ? { LOGGER_ID: `${process.env.LOGGER_ID}_${randomBytes(4).toString("hex")}` } : {};
  return startEmbedded({ clientId: process.env.CONFORMANCE_CLIENT_ID || "gibench", importEnabled: true, writeEnabled: false }, { ...id, ...env });
}

async function startEmbedded(common: Pick<Target, "clientId" | "importEnabled" | "writeEnabled" | "writeVariable">, extra: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-conformance-"));
  const password = `conf-${randomBytes(9).toString("base64url")}`;
  const port = await sparePort();
  const lines: string[] = [];
  let child: ChildProcess;
  try {
    // process.execPath is the Node 24 that runs vitest (npx puts node_modules' Node first).
    child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        LOGGER_PORT: String(port),
        LOGGER_HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: password,
        SIM: "on",
        BACKFILL: process.env.CONFORMANCE_BACKFILL || "5m",
        LOGGER_MODE: "service",
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the embedded logger did not say "logger listening on" within 45 s:\n${lines.slice(-20).join("\n")}`)), 45_000);
    const look = () => {
      const line = lines.find((l) => /logger listening on (\S+)/.test(l));
      if (line) {
        clearTimeout(timer);
        resolveUrl(line.match(/logger listening on (\S+)/)![1]!);
      }
    };
    child.stdout!.on("data", look);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the embedded logger exited before it listened (${signal ?? code}):\n${lines.slice(-20).join("\n")}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });

  return {
    ...common,
    url,
    user: "admin",
    password,
    embedded: true,
    log: () => lines.slice(-30).join("\n"),
    stop,
  };
}
