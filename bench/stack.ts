// Start-up shared by the benches that measure the console: a built console process against a
// logger, a signed-in session cookie, and a bearer token for seeding through the logger.
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../server/flags.ts";
import { freePort } from "../tests/support/freePort.ts";

const root = resolve(import.meta.dirname, "..");
const CLIENT = Buffer.from("loggia-console:loggia-console-secret").toString("base64");

export { freePort };

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
