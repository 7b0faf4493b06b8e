import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb } from "../../../logger/store/db.ts";
import type { Db } from "../../../logger/store/db.ts";
import { tempDir } from "./helpers.ts";

// The SQLite engine behind the Sql interface: transactions stay atomic although other work runs
// between their awaits.

describe("SQLite engine (Sql interface)", () => {
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    dir = tempDir();
    db = openDb(dir);
    await db.exec("CREATE TABLE t (ID INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE)");
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async () => (await db.all<{ Name: string }>("SELECT Name FROM t ORDER BY ID")).map((r) => r.Name);

  /** A promise and the function that resolves it. */
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  }

  it("answers get, all and run (changed rows), RETURNING ID for new rows", async () => {
    const a = await db.get<{ ID: number }>("INSERT INTO t (Name) VALUES (?) RETURNING ID", "a");
    const b = await db.get<{ ID: number }>("INSERT INTO t (Name) VALUES (?) RETURNING ID", "b");
    expect(b!.ID).toBe(a!.ID + 1);
    expect(await db.run("UPDATE t SET Name = Name || '!'")).toBe(2);
    expect(await db.run("DELETE FROM t WHERE Name = ?", "none")).toBe(0);
    expect(await names()).toEqual(["a!", "b!"]);
    expect(await db.get("SELECT * FROM t WHERE ID = ?", 99)).toBeUndefined();
  });

  it("rejects (never throws) a failing statement", async () => {
    await db.run("INSERT INTO t (Name) VALUES (?)", "a");
    const attempt = db.run("INSERT INTO t (Name) VALUES (?)", "a");
    await expect(attempt).rejects.toThrow(/UNIQUE/);
  });

  it("commits a tx when fn resolves and rolls it back when fn throws", async () => {
    await db.tx(async (q) => {
      await q.run("INSERT INTO t (Name) VALUES (?)", "kept");
    });
    await expect(
      db.tx(async (q) => {
        await q.run("INSERT INTO t (Name) VALUES (?)", "lost");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await names()).toEqual(["kept"]);
  });

  it("holds statements from outside until the open tx ends, so they are neither seen by it nor rolled back with it", async () => {
    const g = gate();
    const inTx = db.tx(async (q) => {
      await q.run("INSERT INTO t (Name) VALUES (?)", "tx");
      await g.opened;
      throw new Error("rolled back");
    });
    // Issued while the tx is open (it waits at the gate).
    await Promise.resolve();
    let outsideDone = false;
    const outside = db.run("INSERT INTO t (Name) VALUES (?)", "outside").then(() => (outsideDone = true));
    const read = db.all<{ Name: string }>("SELECT Name FROM t");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(outsideDone).toBe(false);
    g.open();
    await expect(inTx).rejects.toThrow("rolled back");
    await outside;
    // Run in the order issued, after the rollback: never the tx's uncommitted row.
    expect((await read).map((r) => r.Name)).toEqual(["outside"]);
    expect(await names()).toEqual(["outside"]);
  });

  it("runs transactions one after another, each seeing the one before", async () => {
    const g = gate();
    const order: string[] = [];
    const first = db.tx(async (q) => {
      order.push("first begins");
      await q.run("INSERT INTO t (Name) VALUES (?)", "first");
      await g.opened;
      order.push("first ends");
    });
    const second = db.tx(async (q) => {
      order.push("second begins");
      const seen = (await q.all<{ Name: string }>("SELECT Name FROM t")).map((r) => r.Name);
      await q.run("INSERT INTO t (Name) VALUES (?)", "second");
      return seen;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    g.open();
    await first;
    expect(await second).toEqual(["first"]);
    expect(order).toEqual(["first begins", "first ends", "second begins"]);
  });

  it("joins the outer tx through q.tx, and refuses the engine used instead of q inside a tx", async () => {
    await expect(
      db.tx(async (q) => {
        await q.tx((inner) => inner.run("INSERT INTO t (Name) VALUES (?)", "inner"));
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(await names()).toEqual([]);
    await expect(db.tx(() => db.get("SELECT 1"))).rejects.toThrow(/instead of the transaction's q/);
    await expect(db.tx(() => db.tx(async () => 1))).rejects.toThrow(/instead of the transaction's q/);
    // The engine is usable again afterwards.
    expect(await db.tx(async (q) => (await q.get<{ n: number }>("SELECT 2 AS n"))!.n)).toBe(2);
  });
});
