import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./mosquitto.ts";

// A throwaway PostgreSQL server for the PostgreSQL store's tests and benchmarks (issue 17):
// Debian's server binaries, `initdb` into a fresh temporary folder as an unprivileged user (we
// usually run as root, and PostgreSQL refuses to run as root), listening on 127.0.0.1:<port>
// with a generated password, its unix socket in that folder. fsync and the other durability
// settings keep PostgreSQL's defaults so benchmarks measure what a real server does; only
// initdb skips syncing its template files (--no-sync), which nothing measures.
//
//   npx node tests/support/postgres.ts --port 55439     starts one and prints its URL (Ctrl-C stops it)

export type Postgres = {
  /** postgres://postgres:<password>@127.0.0.1:<port>/loggia — a superuser on a fresh database. */
  url: string;
  port: number;
  /** The temporary folder (data in data/, unix socket in sock/). */
  dir: string;
  /** Shuts the server down and removes its folder. */
  stop(): Promise<void>;
  /** Shuts the server down but keeps its data (an outage); resume() starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
};

export type PostgresOptions = {
  /**
   * The port to listen on (a free one by default). The ports tests are given lie in Linux's
   * ephemeral range, so another program's connection may hold one for a while: then a free port
   * is taken instead, unless strictPort (the CLI's --port).
   */
  port?: number;
  strictPort?: boolean;
  /** Extra server settings (name → value), e.g. { shared_buffers: "1GB" } for a benchmark. */
  settings?: Record<string, string>;
  /** The database created for the tests ("loggia" by default). */
  database?: string;
};

/** The folder holding initdb, pg_ctl and postgres: PG_BIN, else Debian's newest /usr/lib/postgresql/<v>/bin. */
export function postgresBin(): string | null {
  const ok = (bin: string) => ["initdb", "pg_ctl", "postgres"].every((b) => existsSync(join(bin, b)));
  if (process.env.PG_BIN) return ok(process.env.PG_BIN) ? process.env.PG_BIN : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => ok(join(root, v, "bin"))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, "bin") : null;
}

/** Why a throwaway server cannot run here (a test skips with this), or null. */
export function postgresMissing(): string | null {
  return postgresBin() ? null : "PostgreSQL's server binaries are missing: run scripts/ensure-postgres.sh (installs Debian's postgresql)";
}

// PostgreSQL will not run as root: as root, every server command runs as the unprivileged
// "postgres" user Debian's package creates (setpriv execs, so the child's pid is the server's own).
function asServerUser(): { prefix: string[]; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (r.status !== 0 || g.status !== 0) throw new Error("running as root, but there is no 'postgres' user to run PostgreSQL as (install Debian's postgresql)");
  return { prefix: ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"], uid: Number(r.stdout), gid: Number(g.stdout) };
}

const live = new Set<ChildProcess>();
let exitHook = false;
// A test run that dies must not leave servers behind on a shared machine: an immediate shutdown
// (SIGQUIT) of every server this process started.
function killOnExit() {
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const c of live) if (c.exitCode === null) c.kill("SIGQUIT");
  });
}

export async function startPostgres(o: PostgresOptions = {}): Promise<Postgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing()!);
  const user = asServerUser();
  let port = o.port ?? (await freePort());
  const database = o.database ?? "loggia";
  const dir = mkdtempSync(join(tmpdir(), "loggia-postgres-"));
  const data = join(dir, "data");
  const sock = join(dir, "sock");
  mkdirSync(sock);
  const password = randomBytes(12).toString("hex");
  const pwFile = join(dir, "pw");
  writeFileSync(pwFile, password + "\n", { mode: 0o600 });
  if (user) for (const p of [dir, sock, pwFile]) chownSync(p, user.uid, user.gid);
  const cmd = (name: string, args: string[]) => (user ? [...user.prefix, join(bin, name), ...args] : [join(bin, name), ...args]);

  try {
    await run(cmd("initdb", ["-D", data, "-U", "postgres", `--pwfile=${pwFile}`, "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"]), dir);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  rmSync(pwFile);
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: sock,
    ...o.settings,
  };
  const serverArgs = () => ["-D", data, "-c", `port=${port}`, ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];

  let child: ChildProcess | null = null;
  let log = "";
  const start = async () => {
    log = "";
    const [file, ...args] = cmd("postgres", serverArgs());
    const c = spawn(file!, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    child = c;
    live.add(c);
    killOnExit();
    c.stderr!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    const exited = new Promise<number | null>((r) => c.once("exit", (code) => (live.delete(c), r(code))));
    for (let i = 0; i < 600; i++) {
      // pg_isready answers 0 only once the server accepts connections (not while it starts up).
      if (spawnSync(join(bin, "pg_isready"), ["-q", "-h", sock, "-p", String(port)]).status === 0) return;
      const done = await Promise.race([exited, new Promise<"wait">((r) => setTimeout(() => r("wait"), 50))]);
      if (done !== "wait") throw new Error(`postgres exited (${done}) before accepting connections on ${port}: ${log.trim()}`);
    }
    throw new Error(`postgres did not accept connections on ${port} within 30 s: ${log.trim()}`);
  };
  const pause = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => {
      c.once("exit", () => r());
      // SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, the data is kept consistent.
      c.kill("SIGINT");
      setTimeout(() => c.exitCode === null && c.kill("SIGKILL"), 20_000).unref();
    });
  };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await start();
        break;
      } catch (err) {
        if (o.strictPort || attempt >= 3 || !/Address already in use/.test((err as Error).message)) throw err;
        port = await freePort();
      }
    }
    await run(["psql", "-X", "-q", "-h", sock, "-p", String(port), "-U", "postgres", "-d", "postgres", "-c", `CREATE DATABASE ${database}`], dir);
  } catch (err) {
    await pause();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    port,
    dir,
    pause,
    resume: start,
    stop: async () => {
      await pause();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function run(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const [file, ...args] = argv;
    const c = spawn(file!, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    c.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    c.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    c.once("error", reject);
    c.once("exit", (code) => (code === 0 ? resolvePromise() : reject(new Error(`${argv.join(" ")} failed (${code}): ${out.trim()}`))));
  });
}

// CLI: start one server, print its URL, stop it (and remove its folder) on Ctrl-C or SIGTERM.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    console.error("usage: npx node tests/support/postgres.ts [--port N]");
    process.exit(2);
  }
  const pg = await startPostgres({ port, strictPort: port !== undefined });
  console.log(pg.url);
  console.error(`PostgreSQL ready in ${pg.dir} (as ${process.getuid?.() === 0 ? "postgres" : userInfo().username}); Ctrl-C stops it and removes the folder.`);
  const quit = () => void pg.stop().then(() => process.exit(0));
  process.once("SIGINT", quit);
  process.once("SIGTERM", quit);
}
