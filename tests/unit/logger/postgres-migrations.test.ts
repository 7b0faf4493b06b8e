import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from "../../../logger/store/migrations.ts";
import { toPostgres } from "../../../logger/store/postgres/dialect.ts";
import { openPostgres } from "../../../logger/store/postgres/open.ts";
import type { PostgresStore } from "../../../logger/store/postgres/open.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";

// One list of migrations for both engines: every released migration, translated by the
// dialect, applied one by one to a real PostgreSQL; the tables it builds have SQLite's columns.

const PG_TEXTS = MIGRATIONS.map((t, i) => toPostgres(i + 1, t));

it("names SQLite-only SQL a new migration would need a PostgreSQL text for", () => {
  expect(() => toPostgres(99, "INSERT OR IGNORE INTO settings (Key, Value) VALUES ('a', 'b');")).toThrow(/migration 99 uses SQLite-only SQL \(INSERT OR\).*OVERRIDES/);
  expect(() => toPostgres(99, "UPDATE t SET a = json_extract(b, '$.c');")).toThrow(/json_extract/);
  // …but not inside a literal.
  expect(toPostgres(99, "INSERT INTO t (a) VALUES ('json_extract(x)');")).toBe("INSERT INTO t (a) VALUES ('json_extract(x)');");
  expect(toPostgres(99, "ALTER TABLE t ADD COLUMN Flag INTEGER NOT NULL DEFAULT 0;")).toBe("ALTER TABLE t ADD COLUMN Flag bigint NOT NULL DEFAULT 0;");
});

describe.skipIf(postgresMissing())("the migrations on PostgreSQL", () => {
  let pg: Postgres;
  const open: PostgresStore[] = [];
  const store = async (loggerId: string) => {
    const db = await openPostgres({ url: pg.url, loggerId, log: () => undefined });
    open.push(db);
    return db;
  };

  beforeAll(async () => {
    pg = await startPostgres({ port: 55433 });
  }, 60_000);

  afterAll(async () => {
    for (const db of open) await db.close();
    await pg?.stop();
  });

  it("applies every migration, one at a time", async () => {
    const db = await store("stepwise");
    for (let v = 1; v <= LATEST_SCHEMA_VERSION; v++) {
      expect(await migrate(db, v, PG_TEXTS)).toBe(v);
    }
    expect(await migrate(db, undefined, PG_TEXTS)).toBe(LATEST_SCHEMA_VERSION);
  });

  it("builds the tables SQLite has, with the same columns, nullability and keys", async () => {
    const db = await store("parity");
    await migrate(db, undefined, PG_TEXTS);
    const lite = new DatabaseSync(":memory:");
    for (const t of MIGRATIONS) lite.exec(t);
    const tables = (lite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    const pgTables = (await db.all<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'loggia_parity' AND table_name <> 'schema_migrations' ORDER BY 1")).map((r) => r.t);
    expect(pgTables).toEqual(tables.map((t) => t.toLowerCase()));
    for (const table of tables) {
      const cols = lite.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; notnull: number; pk: number }>;
      const pgCols = await db.all<{ c: string; nullable: string }>(
        "SELECT column_name AS c, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = 'loggia_parity' AND table_name = ? ORDER BY ordinal_position",
        table,
      );
      expect(pgCols.map((c) => c.c), table).toEqual(cols.map((c) => c.name.toLowerCase()));
      // SQLite lets a PRIMARY KEY column other than the rowid be NULL; PostgreSQL never does.
      expect(pgCols.map((c) => c.nullable === "NO"), table).toEqual(cols.map((c) => c.notnull === 1 || c.pk > 0));
    }
    lite.close();
  });

  it("migration 7 adds the alarm list to a default dashboard left exactly as the old seed made it, as on SQLite", async () => {
    const old = {
      Columns: 12,
      Widgets: ["temperatures", "pressures", "speed", "pump", "door", "hydraulics", "notes", "oil-pressure", "strain"].map((ID, i) => ({ ID, Type: "chart", X: 0, Y: i })),
    };
    const dashboards: Array<[string, string, number, string, number]> = [
      ["seeded", "Test cell dashboard", 1, JSON.stringify(old), 1],
      ["edited", "Test cell dashboard", 1, JSON.stringify(old), 2],
      ["other", "Mine", 0, JSON.stringify({ Columns: 12, Widgets: [] }), 1],
    ];
    const insert = "INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, ?, ?, ?, ?)";
    const db = await store("seven");
    await migrate(db, 6, PG_TEXTS);
    for (const d of dashboards) await db.run(insert, ...d, "2020-01-01T00:00:00.000Z");
    await migrate(db, 7, PG_TEXTS);

    const lite = new DatabaseSync(":memory:");
    for (const t of MIGRATIONS.slice(0, 6)) lite.exec(t);
    for (const d of dashboards) lite.prepare(insert).run(...d, "2020-01-01T00:00:00.000Z");
    lite.exec(MIGRATIONS[6]!);

    const read = "SELECT ID, Version, Content FROM dashboards ORDER BY ID";
    const mine = (await db.all<{ ID: string; Version: number; Content: string }>(read)).map((r) => ({ ...r, Content: JSON.parse(r.Content) }));
    const theirs = (lite.prepare(read).all() as Array<{ ID: string; Version: number; Content: string }>).map((r) => ({ ...r, Content: JSON.parse(r.Content) }));
    expect(mine).toEqual(theirs);
    expect(mine.find((d) => d.ID === "seeded")!.Content.Widgets.at(-1).ID).toBe("alarms");
    expect(mine.find((d) => d.ID === "seeded")!.Version).toBe(2);
    const messages = await db.all("SELECT Sender, Topic, Type, Text FROM messages");
    expect(messages).toEqual(lite.prepare("SELECT Sender, Topic, Type, Text FROM messages").all().map((r) => ({ ...r })));
    expect(messages).toHaveLength(1);
    const updated = await db.get<{ Updated: string }>("SELECT Updated FROM dashboards WHERE ID = 'seeded'");
    expect(updated!.Updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    lite.close();
  });

  it("does nothing in migration 7 when no dashboard matches (no audit message)", async () => {
    const db = await store("seven_none");
    await migrate(db, undefined, PG_TEXTS);
    expect(await db.all("SELECT ID FROM messages")).toEqual([]);
  });
});
