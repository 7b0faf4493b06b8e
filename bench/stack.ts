// Start-up shared by the benches that measure the console: a built console process against a
// logger, a signed-in session cookie, and a bearer token for seeding through the logger.
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { LOGGER_NODE_FLAGS, loggerEnv } from "../logger/flags.ts";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";
import { freePort } from "../tests/support/freePort.ts";

const root = resolve(import.meta.dirname, "..");
const CLIENT = Buffer.from("loggia-console:loggia-console-secret").toString("base64");

export { freePort };

/**
 * A logger of the tree at `root` (this one, or a worktree of another commit) on a port of its own
 * over `dataDir`, started as npm start runs it (its V8 flags and allocator settings, logger/flags.ts),
 * simulating a bench of `channels` channels at `rateHz` with `backfill` of history; resolves once it
 * listens. `onOutput` sees everything it writes on stdout (e.g. --trace-gc's lines).
 */
export async function startBenchLogger(opts: {
  root?: string;
  dataDir: string;
  password: string;
  backfill: string;
  rateHz: number;
  channels: number;
  seed: number;
  nodeFlags?: string[];
  /** More environment, e.g. STORE_URL and LOGGER_ID for a logger on PostgreSQL. */
  env?: Record<string, string>;
  onOutput?: (chunk: Buffer) => void;
}): Promise<{ url: string; child: ChildProcess }> {
  const from = opts.root ?? root;
  const child = spawn(process.execPath, [...LOGGER_NODE_FLAGS, ...(opts.nodeFlags ?? []), join(from, "logger/main.ts"), "--port", "0", "--data", opts.dataDir, "--backfill", opts.backfill], {
    cwd: from,
    env: { ...process.env, ...loggerEnv(), ADMIN_PASSWORD: opts.password, SIM: "on", SIM_BENCH_RATE_HZ: String(opts.rateHz), SIM_BENCH_CHANNELS: String(opts.channels), SIM_SEED: String(opts.seed), ...opts.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = "";
    const listening = (d: Buffer) => {
      out += d.toString();
      const m = /logger listening on (\S+)/.exec(out);
      if (m) {
        child.stdout!.off("data", listening);
        ok(m[1]!);
      }
    };
    child.stdout!.on("data", listening);
    child.once("exit", (code) => fail(new Error(`the logger of ${from} exited with ${code}`)));
  });
  // Drained from here on, or the logger would block on a full pipe.
  child.stdout!.on("data", opts.onOutput ?? (() => {}));
  return { url, child };
}

/** The built console (build/server) on a free port, answering once /signin does. */
export async function startConsole(loggerUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...CONSOLE_NODE_FLAGS, join(root, "server/main.ts"), "build/server/index.js"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOGGER_URL: loggerUrl, NODE_ENV: "production", SESSION_SECRET: "bench-secret-0123456789abcdefghij" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/signin`);
      return { url, child };
    } catch {
      if (i > 100) {
        child.kill();
        throw new Error("console did not start");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A browser's cookies, kept from every answer as a browser does. */
export class Jar {
  cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * The session cookie of admin signed in through the console's form, after landing where the
 * sign-in leads, as a browser does: that page shows the sign-in toast once and writes the session
 * back without it. (Benches kept the cookie of the sign-in answer itself, so every page they
 * asked for showed the toast again and re-signed the cookie: ≈ 1.2 ms of the console's JavaScript per
 * page that no browser causes.)
 */
export async function signInCookie(consoleUrl: string, password: string): Promise<string> {
  const jar = new Jar();
  let res = await fetch(`${consoleUrl}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: consoleUrl },
    body: new URLSearchParams({ username: "admin", password }),
  });
  jar.take(res);
  for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
    const next = new URL(res.headers.get("location")!, consoleUrl);
    res = await fetch(next, { headers: { Cookie: jar.header() }, redirect: "manual" });
    await res.arrayBuffer();
    jar.take(res);
  }
  return jar.header();
}

/** An access token of admin, straight from the logger. */
export async function adminToken(loggerUrl: string, password: string): Promise<string> {
  const res = await fetch(`${loggerUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${CLIENT}` },
    body: new URLSearchParams({ grant_type: "password", username: "admin", password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
