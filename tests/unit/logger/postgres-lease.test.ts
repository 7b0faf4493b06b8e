import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../logger/store/migrations.ts";
import { StoreUnavailable } from "../../../logger/store/postgres/errors.ts";
import { openPostgres } from "../../../logger/store/postgres/open.ts";
import type { PostgresStore } from "../../../logger/store/postgres/open.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";

// Several loggers on one PostgreSQL: a schema each, one logger per LOGGER_ID (the lease), and
// an outage that costs 503s, not a restart.

const OPEN = resolve(import.meta.dirname, "../../../logger/store/postgres/open.ts");

/** Another process holding the lease of `id`, as a logger on another machine would. */
function holder(url: string, id: string): Promise<ChildProcess> {
  const script = `
    import { openPostgres } from ${JSON.stringify(OPEN)};
    await openPostgres({ url: process.env.URL, loggerId: process.env.ID, log: () => {} });
    process.stdout.write("holding\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, URL: url, ID: id }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((ok, fail) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("holding") && ok(child));
    child.once("exit", (code) => fail(new Error(`holder exited (${code}): ${err}`)));
  });
}

describe.skipIf(postgresMissing())("loggers sharing a PostgreSQL", () => {
  let pg: Postgres;
  const open: PostgresStore[] = [];
  const store = async (loggerId: string, lines: string[] = []) => {
    const db = await openPostgres({ url: pg.url, loggerId, log: (l) => lines.push(l), startTimeoutMs: 20_000, onLeaseLost: (m) => lines.push(`LOST ${m}`) });
    open.push(db);
    return db;
  };

  beforeAll(async () => {
    pg = await startPostgres({ port: 55434 });
  }, 60_000);

  afterAll(async () => {
    for (const db of open) await db.close().catch(() => undefined);
    await pg?.stop();
  });

  it("keeps each LOGGER_ID's rows in its own schema, and says whether TimescaleDB is there", async () => {
    const lines: string[] = [];
    const a = await store("cell_a", lines);
    // Debian's PostgreSQL has no TimescaleDB: the path every test here takes.
    expect(a.timescale).toEqual({ available: false, version: null });
    expect(lines).toEqual([expect.stringMatching(/^logger: store in PostgreSQL 1\d\.\d+ .* at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/loggia, schema loggia_cell_a \(LOGGER_ID cell_a\); the TimescaleDB extension is not available on this server$/)]);
    const b = await store("cell_b");
    await migrate(a);
    await migrate(b);
    await a.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "who", "a");
    expect(await a.get("SELECT Value FROM settings WHERE Key = 'who'")).toEqual({ Value: "a" });
    expect(await b.get("SELECT Value FROM settings WHERE Key = 'who'")).toBeUndefined();
    await b.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "who", "b");
    expect(await a.all("SELECT Value FROM settings")).toEqual([{ Value: "a" }]);
    expect(a.schema).toBe("loggia_cell_a");
  });

  it("refuses a second logger with the same id, naming the holder", async () => {
    const first = await store("twice");
    await expect(openPostgres({ url: pg.url, loggerId: "twice", log: () => undefined })).rejects.toThrow(
      new RegExp(`LOGGER_ID twice is in use by the logger on .+ \\(pid ${process.pid}, since .+\\)\\. Stop that logger first`),
    );
    const rows = await first.all("SELECT id, pid FROM loggia.loggers WHERE id = 'twice'");
    expect(rows).toEqual([{ id: "twice", pid: process.pid }]);
    // A clean stop gives the id back at once.
    await first.close();
    const again = await store("twice");
    expect(again.loggerId).toBe("twice");
  });

  it("lets a standby take over at once when the holder is killed (kill -9)", async () => {
    const child = await holder(pg.url, "standby");
    try {
      await expect(openPostgres({ url: pg.url, loggerId: "standby", log: () => undefined })).rejects.toThrow(new RegExp(`pid ${child.pid}`));
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    // PostgreSQL sees the connection close and drops the lock; the standby waits for nothing.
    const t0 = Date.now();
    let db: PostgresStore | null = null;
    while (!db && Date.now() - t0 < 5000) {
      db = await store("standby").catch(() => null);
      if (!db) await new Promise((r) => setTimeout(r, 50));
    }
    expect(db?.loggerId).toBe("standby");
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await db!.all("SELECT id, pid FROM loggia.loggers WHERE id = 'standby'")).toEqual([{ id: "standby", pid: process.pid }]);
  });

  it("answers 503 while PostgreSQL is down and carries on when it is back, lease included", async () => {
    const lines: string[] = [];
    const db = await store("outage", lines);
    await migrate(db);
    await db.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "before", "1");
    await pg.pause();
    try {
      const err = await db.get("SELECT Value FROM settings").then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailable);
      expect((err as StoreUnavailable).status).toBe(503);
      const txErr = await db.tx((q) => q.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "during", "1")).then(() => null, (e: unknown) => e);
      expect(txErr).toBeInstanceOf(StoreUnavailable);
    } finally {
      await pg.resume();
    }
    // The pool connects afresh on the next query; no restart.
    await db.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "after", "1");
    expect(await db.all("SELECT Key FROM settings ORDER BY Key")).toEqual([{ Key: "after" }, { Key: "before" }]);
    // The lease comes back too, and nobody else can take the id meanwhile.
    const t0 = Date.now();
    while (!lines.some((l) => l.includes("held again")) && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(lines.some((l) => l.includes("held again"))).toBe(true);
    await expect(openPostgres({ url: pg.url, loggerId: "outage", log: () => undefined })).rejects.toThrow(/in use/);
    expect(lines.filter((l) => l.startsWith("LOST"))).toEqual([]);
  }, 40_000);

  it("waits for PostgreSQL at start, saying so", async () => {
    await pg.pause();
    const lines: string[] = [];
    const opening = store("late", lines);
    try {
      const t0 = Date.now();
      while (!lines.some((l) => l.includes("unreachable")) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(lines.find((l) => l.includes("unreachable"))).toMatch(/PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/loggia is unreachable \(.*ECONNREFUSED.*\); trying again in/);
    } finally {
      await pg.resume();
    }
    expect((await opening).loggerId).toBe("late");
  }, 40_000);

  it("does not wait when waiting cannot help (wrong password)", async () => {
    const url = pg.url.replace(/:[^:@/]+@/, ":wrong@");
    await expect(openPostgres({ url, loggerId: "badpw", log: () => undefined })).rejects.toThrow(/password authentication failed/);
  });
});
