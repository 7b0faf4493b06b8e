import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";
import { ADMIN_PASSWORD, API, login, rpc, start, tempDir } from "./helpers.ts";

// The whole logger on PostgreSQL (STORE_URL): a second logger with the same LOGGER_ID refuses to
// start, a standby takes over after kill -9, and an outage is 503s, then business as usual.

const MAIN = resolve(import.meta.dirname, "../../../logger/main.ts");

type Proc = { child: ChildProcess; url: Promise<string>; exit: Promise<number | null>; err: () => string };

function logger(storeUrl: string, loggerId: string, env: Record<string, string> = {}): Proc {
  const dataDir = tempDir();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, STORE_URL: storeUrl, LOGGER_ID: loggerId, LOGGER_PORT: "0", DATA_DIR: dataDir, SIM: "off", ADMIN_PASSWORD, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((r) =>
    child.once("exit", (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      r(code);
    }),
  );
  const url = new Promise<string>((ok, fail) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /logger listening on (\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    void exit.then((code) => fail(new Error(`logger exited (${code}): ${err}`)));
  });
  url.catch(() => undefined);
  return { child, url, exit, err: () => err };
}

describe.skipIf(postgresMissing())("the logger on PostgreSQL", () => {
  let pg: Postgres;
  const procs: Proc[] = [];
  const run = (id: string, env: Record<string, string> = {}) => {
    const p = logger(pg.url, id, env);
    procs.push(p);
    return p;
  };

  beforeAll(async () => {
    pg = await startPostgres({ port: 55436 });
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await Promise.all(procs.map((p) => p.exit));
    await pg?.stop();
  });

  it("refuses a second logger with the same LOGGER_ID and lets a standby take over after kill -9", async () => {
    const first = run("cell");
    const url = await first.url;
    const admin = await login(url, "admin", ADMIN_PASSWORD);
    const added = await rpc(url, `${API}.AddRole`, { Role: { Name: "Shift lead", Description: "", Permissions: [] } }, admin.access);
    expect(added.status).toBe(200);

    const second = run("cell");
    expect(await second.exit).not.toBe(0);
    expect(second.err()).toMatch(new RegExp(`LOGGER_ID cell is in use by the logger on \\S+ \\(pid ${first.child.pid}, since .+\\)\\. Stop that logger first`));

    // Another id on the same database is another logger, with data of its own.
    const other = run("cell_2");
    const otherUrl = await other.url;
    const otherAdmin = await login(otherUrl, "admin", ADMIN_PASSWORD);
    const otherRoles = await rpc(otherUrl, `${API}.GetRoles`, {}, otherAdmin.access);
    expect(otherRoles.body.Roles.map((r: { Name: string }) => r.Name)).not.toContain("Shift lead");

    first.child.kill("SIGKILL");
    await first.exit;
    const standby = run("cell");
    const standbyUrl = await standby.url;
    const again = await login(standbyUrl, "admin", ADMIN_PASSWORD);
    const roles = await rpc(standbyUrl, `${API}.GetRoles`, {}, again.access);
    expect(roles.body.Roles.map((r: { Name: string }) => r.Name)).toContain("Shift lead");
  }, 60_000);

  it("answers 503 while PostgreSQL is down and serves again when it is back, without a restart", async () => {
    const lines: string[] = [];
    const l = await start({ storeUrl: pg.url, loggerId: "outage", adminPassword: ADMIN_PASSWORD, log: (line) => lines.push(line) });
    try {
      const admin = await login(l.url, "admin", ADMIN_PASSWORD);
      expect((await rpc(l.url, `${API}.GetRoles`, {}, admin.access)).status).toBe(200);
      await pg.pause();
      try {
        const down = await rpc(l.url, `${API}.GetRoles`, {}, admin.access);
        expect(down.status).toBe(503);
        expect(JSON.stringify(down.body)).toMatch(/database is unreachable/);
      } finally {
        await pg.resume();
      }
      const up = await rpc(l.url, `${API}.GetRoles`, {}, admin.access);
      expect(up.status).toBe(200);
      expect((await login(l.url, "admin", ADMIN_PASSWORD)).access).toBeTruthy();
    } finally {
      await l.stop();
    }
  }, 60_000);

  it("survives an outage while acquiring (simulator, alarms, flushes) and carries on", async () => {
    const p = run("busy", { SIM: "on", BACKFILL: "1m" });
    const url = await p.url;
    const admin = await login(url, "admin", ADMIN_PASSWORD);
    await pg.pause();
    try {
      // Long enough for every timer (flushes every 0.5 s, the alarm clock, the lease heartbeat) to hit the outage.
      const t0 = Date.now();
      while (Date.now() - t0 < 12_000) {
        expect(p.child.exitCode, p.err()).toBeNull();
        await new Promise((r) => setTimeout(r, 250));
      }
      expect((await rpc(url, `${API}.GetRoles`, {}, admin.access)).status).toBe(503);
    } finally {
      await pg.resume();
    }
    expect((await rpc(url, `${API}.GetRoles`, {}, admin.access)).status).toBe(200);
    expect(p.child.exitCode).toBeNull();
  }, 90_000);
});
