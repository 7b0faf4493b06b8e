import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../../logger/store/migrations.ts";
import { toPostgres } from "../../../logger/store/postgres/dialect.ts";
import { openPostgres } from "../../../logger/store/postgres/open.ts";
import type { PostgresStore } from "../../../logger/store/postgres/open.ts";
import { prepare, schemaNamesOf, splitSql } from "../../../logger/store/postgres/statements.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";

// The Sql interface on a real (throwaway) PostgreSQL: the portable SQL of logger/store/sql.ts
// must answer as it does on SQLite.

describe("portable SQL → PostgreSQL (no server)", () => {
  it("numbers ? placeholders only outside literals, quoted names and comments", () => {
    const p = prepare(`SELECT ?, '?', 'it''s ?', "a?" -- ?\n, ? /* ? */ FROM t WHERE x = ?`, new Map());
    expect(p.text).toBe(`SELECT $1, '?', 'it''s ?', "a?" -- ?\n, $2 /* ? */ FROM t WHERE x = $3`);
    expect(p.params).toBe(3);
  });

  it("splits dollar quotes as literals", () => {
    expect(splitSql("SELECT $$ ? $$, ?").filter((x) => x.code).map((x) => x.text)).toEqual(["SELECT ", ", ?"]);
  });

  it("quotes the reserved column names End and User, and not the keyword END", () => {
    const p = prepare("SELECT CASE WHEN End IS NULL THEN 1 ELSE 0 END AS open, User FROM t", new Map());
    expect(p.text).toBe(`SELECT CASE WHEN "end" IS NULL THEN 1 ELSE 0 END AS open, "user" FROM t`);
  });

  it("gives the same statement the same name, and none to a long IN list", () => {
    expect(prepare("SELECT 1", new Map()).name).toBe(prepare("SELECT 1", new Map()).name);
    expect(prepare("SELECT 1", new Map()).name).not.toBe(prepare("SELECT 2", new Map()).name);
    expect(prepare(`SELECT 1 WHERE x IN (${Array(40).fill("?").join(",")})`, new Map()).name).toBeNull();
  });

  it("spells result columns as the alias, the statement, then the schema does", () => {
    const schema = schemaNamesOf(MIGRATIONS);
    expect(schema.get("username")).toBe("Username");
    expect(schema.get("id")).toBe("ID");
    expect(schema.get("text")).toBe("Text");
    const p = prepare("SELECT COUNT(*) AS n, MAX(Version) AS v, id, CAST(x AS TEXT) FROM users", schema);
    expect([p.names.get("n"), p.names.get("v"), p.names.get("id"), p.names.get("username"), p.names.get("text")]).toEqual(["n", "v", "id", "Username", "Text"]);
  });
});

describe.skipIf(postgresMissing())("the PostgreSQL engine", () => {
  let pg: Postgres;
  let db: PostgresStore;

  beforeAll(async () => {
    pg = await startPostgres({ port: 55432 });
    db = await openPostgres({ url: pg.url, loggerId: "engine", log: () => undefined });
    await migrate(db, undefined, MIGRATIONS.map((t, i) => toPostgres(i + 1, t)));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await pg?.stop();
  });

  const role = (name: string) => db.get<{ ID: number }>("INSERT INTO roles (Name, Description) VALUES (?, ?) RETURNING ID", name, "");

  it("binds parameters and leaves ? in literals alone", async () => {
    const row = await db.get("SELECT ? AS a, '?' AS b, 'it''s ?' AS c, ? AS d", "x", "y");
    expect(row).toEqual({ a: "x", b: "?", c: "it's ?", d: "y" });
  });

  it("refuses a wrong number of parameters", async () => {
    await expect(db.get("SELECT ? AS a", "x", "y")).rejects.toThrow(/1 parameter\(s\) expected, 2 given/);
  });

  it("returns rows keyed as the migrations and the statement spell them", async () => {
    const r = await role("Keys");
    await db.run(
      "INSERT INTO users (Username, EMail, Role, PasswordHash, PasswordSalt) VALUES (?, ?, ?, ?, ?)",
      "Alice", "a@example.com", r!.ID, "h", "s",
    );
    const user = await db.get<Record<string, unknown>>("SELECT * FROM users WHERE Username = ?", "Alice");
    expect(Object.keys(user!)).toEqual([
      "ID", "Username", "EMail", "Role", "Timezone", "TimezoneDiffSec", "TimezoneUseDST", "Language", "Theme",
      "MustChangePassword", "PasswordHash", "PasswordSalt", "Version",
    ]);
    expect(user!.TimezoneUseDST).toBe(1);
    expect(await db.get("SELECT COUNT(*) AS n, MAX(Version) AS v FROM users")).toEqual({ n: 1, v: 1 });
  });

  it("compares COLLATE NOCASE columns without case: unique, and equal in WHERE", async () => {
    await role("Operators");
    await expect(role("OPERATORS")).rejects.toThrow(/duplicate key|unique/i);
    expect((await db.get<{ Name: string }>("SELECT Name FROM roles WHERE Name = ?", "operators"))?.Name).toBe("Operators");
  });

  it("keeps other text binary (as SQLite does): case matters, sorting by code point", async () => {
    await db.run("INSERT INTO settings (Key, Value) VALUES (?, ?), (?, ?)", "b", "1", "B", "2");
    expect(await db.all("SELECT Key FROM settings WHERE Key IN (?, ?) ORDER BY Key", "b", "B")).toEqual([{ Key: "B" }, { Key: "b" }]);
  });

  it("matches LIKE without ASCII case, as SQLite does", async () => {
    await db.run("INSERT INTO messages (Sender, Topic, Type, Text, Timestamp) VALUES (?, ?, ?, ?, ?)", "s", "t", "Info", "Pump STARTED", "2026-01-01T00:00:00.000Z");
    expect(await db.all("SELECT Text FROM messages WHERE Text LIKE ? ESCAPE '\\'", "%started%")).toEqual([{ Text: "Pump STARTED" }]);
  });

  it("hands back BLOBs as Uint8Array, 64-bit integers and 0/1 flags as numbers, reals as numbers", async () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    await db.run("INSERT INTO files (Name, ContentType, Content, Updated) VALUES (?, ?, ?, ?)", "f.bin", "application/octet-stream", bytes, "now");
    const f = await db.get<{ Content: Uint8Array }>("SELECT Content FROM files WHERE Name = ?", "f.bin");
    expect(f!.Content).toBeInstanceOf(Uint8Array);
    expect(Array.from(f!.Content)).toEqual([0, 1, 254, 255]);
    const big = 1_700_000_000_000_000;
    await db.run("INSERT INTO measurements (ID, Name, Start, End, SourceId) VALUES (?, ?, ?, ?, ?)", "m1", "M", big, big + 1, "sim");
    expect(await db.get("SELECT Start, End, End IS NULL AS open, EXISTS (SELECT 1 FROM measurements) AS any FROM measurements WHERE ID = ?", "m1")).toEqual({
      Start: big, End: big + 1, open: 0, any: 1,
    });
    expect(await db.get("SELECT SUM(Start) AS s FROM measurements")).toEqual({ s: big });
    await db.run("INSERT INTO alarm_rules (Name, VariableId, Type, Severity, High) VALUES (?, ?, ?, ?, ?)", "r1", "v", "high", "Major", 1.5);
    expect(await db.get("SELECT High FROM alarm_rules WHERE Name = ?", "r1")).toEqual({ High: 1.5 });
    await db.run(
      "INSERT INTO alarm_history (RuleID, RuleName, VariableId, Severity, Event, FromState, ToState, User, Timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      1, "r1", "v", "Major", "ack", "A", "B", "bob", "t",
    );
    expect(await db.get("SELECT User FROM alarm_history WHERE RuleName = ?", "r1")).toEqual({ User: "bob" });
  });

  it("run() resolves to the number of rows changed", async () => {
    await db.run("INSERT INTO settings (Key, Value) VALUES (?, ?), (?, ?)", "c1", "x", "c2", "x");
    expect(await db.run("UPDATE settings SET Value = ? WHERE Value = ?", "y", "x")).toBe(2);
    expect(await db.run("UPDATE settings SET Value = ? WHERE Key = ?", "y", "none")).toBe(0);
  });

  it("rolls a transaction back when fn throws, nested q.tx included", async () => {
    await expect(
      db.tx(async (q) => {
        await q.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "rolled", "1");
        await q.tx(async (inner) => inner.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "rolled-inner", "1"));
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await db.all("SELECT Key FROM settings WHERE Key LIKE 'rolled%'")).toEqual([]);
    const n = await db.tx(async (q) => {
      await q.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", "kept", "1");
      return q.tx(async (inner) => (await inner.get<{ n: number }>("SELECT COUNT(*) AS n FROM settings WHERE Key = ?", "kept"))!.n);
    });
    expect(n).toBe(1);
  });

  it("runs a transaction again after a serialization failure, so a check and its write stay atomic", async () => {
    // Two transactions read the same count, then both write what depends on it: at SERIALIZABLE
    // one of them fails and runs again, seeing the other's row — as with SQLite's one writer.
    let arrived = 0;
    let release!: () => void;
    const both = new Promise<void>((r) => (release = r));
    let runs = 0;
    const add = (key: string) =>
      db.tx(async (q) => {
        runs++;
        const { n } = (await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM settings WHERE Key LIKE 'seq-%'"))!;
        if (++arrived === 2) release();
        await Promise.race([both, new Promise((r) => setTimeout(r, 2000))]);
        await q.run("INSERT INTO settings (Key, Value) VALUES (?, ?)", key, String(n));
      });
    await Promise.all([add("seq-a"), add("seq-b")]);
    // At least one run again; more when a retry read before the other committed (a loaded
    // machine delays that commit past the retry's back-off), each failing the same way.
    expect(runs).toBeGreaterThanOrEqual(3);
    const values = (await db.all<{ Value: string }>("SELECT Value FROM settings WHERE Key LIKE 'seq-%' ORDER BY Value")).map((r) => r.Value);
    expect(values).toEqual(["0", "1"]);
  });

  it("keeps working when a pooled connection is killed (it leaves the pool)", async () => {
    await db.get("SELECT 1 AS one");
    await db.get("SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE application_name = 'loggia-logger:engine' AND pid <> pg_backend_pid() AND state = 'idle'");
    for (let i = 0; i < 12; i++) expect(await db.get("SELECT 1 AS one")).toEqual({ one: 1 });
  });
});
