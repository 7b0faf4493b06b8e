import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CHUNK_BUCKETS, LEVELS, PLAIN_FROM_LEVEL, decodeBlock, decodeChunk, isPacked } from "../../../logger/store/series/blocks.ts";
import { PgSeries } from "../../../logger/store/series/pg.ts";
import { planQuery, trackColumns } from "../../../logger/store/series/query.ts";
import { summarize } from "../../../logger/store/series/ranges.ts";
import { emptySummary } from "../../../logger/store/series/rollups.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { testLoggerId, testStoreUrl } from "../../support/testStore.ts";
import { AFTER, LENGTH, START, VARS, buildLegacy, value } from "./series-compact-child.ts";
import { sleep, tempDir } from "./helpers.ts";

// Background compaction (issue 29) of a store written before rows were packed: read as it is,
// packed in the background without changing one bit of what it holds, never looked at twice,
// and safe against a kill at any moment. On SQLite in `npm test`, on PostgreSQL in `npm run test:pg`.

const CHILD = fileURLToPath(new URL("./series-compact-child.ts", import.meta.url));
const storeUrl = testStoreUrl();
const schemaOf = (dir: string) => `loggia_${testLoggerId(dir)}`;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function open(dir: string): Promise<SeriesStore> {
  return storeUrl ? SeriesStore.open(await PgSeries.connect(storeUrl, schemaOf(dir))) : new SeriesStore(dir);
}

/** Every stored row, as the engine holds it. */
async function storedRows(store: SeriesStore): Promise<Map<bigint, Uint8Array>> {
  const out = new Map<bigint, Uint8Array>();
  if (store.backend instanceof PgSeries) {
    for (const table of ["series_blocks", "series_rollups"]) {
      const res = await store.backend.pool.query(`SELECT id, data FROM "${store.backend.schema}".${table}`);
      for (const r of res.rows as Array<{ id: string; data: Buffer }>) out.set(BigInt(r.id), new Uint8Array(r.data));
    }
  } else {
    const stmt = store.db.prepare("SELECT Id, Data FROM series_rows");
    stmt.setReadBigInts(true);
    for (const r of stmt.all() as Array<{ Id: bigint; Data: Uint8Array }>) out.set(r.Id, r.Data.slice());
  }
  return out;
}

/** What a row holds, bit for bit, whatever its form. */
function contentOf(id: bigint, bytes: Uint8Array): number[] {
  if (Number((id >> 40n) & 7n) === 0) {
    const b = decodeBlock(bytes);
    return Array.from(new Uint32Array(b.buffer, b.byteOffset, b.length));
  }
  const c = decodeChunk(bytes);
  const n = c.length;
  const bits = (a: Float32Array | Float64Array, k: number) => Array.from(new Uint32Array(a.buffer, a.byteOffset, k));
  return [n, ...bits(c.min, n), ...bits(c.max, n), ...bits(c.sum, 2 * n), ...bits(c.count, n)];
}

function expectSameContent(got: Map<bigint, Uint8Array>, want: Map<bigint, Uint8Array>): void {
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [id, bytes] of want) {
    const a = contentOf(id, got.get(id)!);
    const b = contentOf(id, bytes);
    // One comparison per row (a failure names it), not 4080 expects.
    expect(a.length === b.length && a.every((x, i) => x === b[i]), `row ${id}`).toBe(true);
  }
}

const bytesOf = (rows: Map<bigint, Uint8Array>) => [...rows.values()].reduce((n, r) => n + r.byteLength, 0);

/** Answers that cover every level: buckets over spans from seconds to the whole store, exact. */
async function answers(store: SeriesStore) {
  const out: unknown[] = [];
  for (let i = 0; i < VARS; i++) {
    const v = store.variable(`v${i}`)!;
    for (const [from, span, points] of [[0, 5_000, 100], [333_333, 300_000, 500], [0, LENGTH + AFTER, 200], [LENGTH - 1000, 40_000, 1000]] as const) {
      const fromUs = (START + from) * 1000;
      const toUs = fromUs + span * 1000;
      const plan = planQuery(fromUs, toUs, points, 1000);
      out.push(await store.read((rows) => trackColumns(rows, store.partsOf(v, fromUs, toUs), plan, 0, plan.size)));
    }
  }
  return out;
}

/** Rollups agree with the raw samples, and the raw samples are the generator's. */
async function expectIntact(store: SeriesStore): Promise<void> {
  for (let i = 0; i < VARS; i++) {
    const [part] = store.partsOf(store.variable(`v${i}`)!);
    const vs = part!.vs;
    const [fromRollups, fromRaw, sample] = await store.read((rows) => {
      const r = emptySummary();
      const w = emptySummary();
      summarize(rows, vs, vs.first, vs.end, 3, r);
      summarize(rows, vs, vs.first, vs.end, 0, w);
      const g = START + 777_777 + i;
      const blk = Math.floor(g / 4080);
      return [r, w, rows.block(vs, blk)![g - blk * 4080]!];
    });
    expect(fromRollups).toEqual(fromRaw);
    expect(sample).toBe(value(START + 777_777 + i, i));
  }
}

/** A folder with a store written before packing, closed, and the answers that store gave. */
async function legacyFolder() {
  const dir = tempDir();
  dirs.push(dir);
  const legacy = await open(dir);
  await buildLegacy(legacy);
  const before = await answers(legacy);
  await legacy.close();
  return { dir, before };
}

describe(`background compaction of a store written before packing (${storeUrl ? "PostgreSQL" : "SQLite"})`, () => {
  it("reads old plain rows as they are, packs them without changing a bit, and never looks at them twice", async () => {
    const { dir, before } = await legacyFolder();

    const store = await open(dir);
    const old = await storedRows(store);
    expect([...old.values()].every((r) => !isPacked(r))).toBe(true);
    // Read as it is: the same answers before anything is packed.
    expect(await answers(store)).toEqual(before);
    const packed = await store.compactAll();
    expect(packed).toBeGreaterThan(0.9 * old.size);
    const now = await storedRows(store);
    expectSameContent(now, old);
    // What stays plain: at most the row each writer still fills, per part and level.
    const plain = [...now.values()].filter((r) => !isPacked(r)).length;
    expect(plain).toBeLessThanOrEqual(VARS * 2 * 4);
    expect(bytesOf(now)).toBeLessThan(0.6 * bytesOf(old));
    expect(await answers(store)).toEqual(before);
    await expectIntact(store);

    // Appending goes on: complete rows are packed as they are written.
    const vs = store.seriesOf(store.variable("v0")!);
    const more = Float32Array.from({ length: 20_000 }, (_, k) => value(vs.end + k, 0));
    store.append("v0", vs.end, more);
    await store.close();

    // The next start finds nothing to look at: its marks follow what the writers packed.
    const again = await open(dir);
    let looked = 0;
    const plainRows = again.backend.plainRows.bind(again.backend);
    again.backend.plainRows = (lo, hi) => (looked++, plainRows(lo, hi));
    expect(await again.compactAll()).toBe(0);
    expect(looked).toBe(0);
    const last = await storedRows(again);
    expect([...last.values()].filter((r) => !isPacked(r)).length).toBeLessThanOrEqual(plain + 1);
    await again.close();
  }, 120_000);

  it("keeps the chunks of the coarse levels plain, written or compacted, and packs those below", async () => {
    // A query over days reads mostly level-2 chunks: plain, they cost no decoding.
    const levelOf = (id: bigint) => Number((id >> 40n) & 7n);
    const n = CHUNK_BUCKETS * LEVELS[PLAIN_FROM_LEVEL]! + 5_000;
    const samples = Float32Array.from({ length: n }, (_, k) => value(START + k, 0));
    const formsOf = async (store: SeriesStore) => {
      const rows = await storedRows(store);
      const first = (level: number) => rows.get([...rows.keys()].filter((id) => levelOf(id) === level).sort((a, b) => (a < b ? -1 : 1))[0]!)!;
      return { rows, level1: isPacked(first(1)), coarse: isPacked(first(PLAIN_FROM_LEVEL)) };
    };
    for (const pack of [true, false]) {
      const dir = tempDir();
      dirs.push(dir);
      const store = await open(dir);
      store.codec.pack = pack;
      store.defineSource({ Id: "s", Name: "S", PeriodUs: 1000 });
      store.defineVariable({ Id: "v0", SourceId: "s", Name: "v0", Unit: "" });
      store.append("v0", START, samples);
      await store.flush();
      const written = await formsOf(store);
      // The first chunk of each level is complete: written packed below, plain from PLAIN_FROM_LEVEL on.
      expect(written, `pack ${pack}`).toMatchObject({ level1: pack, coarse: false });
      await store.close();
      if (pack) continue;
      // Written plain (as before issue 29), then compacted at the next start.
      const again = await open(dir);
      expect(await again.compactAll()).toBeGreaterThan(0);
      const compacted = await formsOf(again);
      expect(compacted).toMatchObject({ level1: true, coarse: false });
      expectSameContent(compacted.rows, written.rows);
      await again.close();
    }
  }, 120_000);

  it("loses nothing when the process is killed during compaction, and finishes after a restart", async () => {
    const { dir, before } = await legacyFolder();
    const probe = await open(dir);
    const old = await storedRows(probe);
    await probe.close();

    const child = spawn(process.execPath, [CHILD, dir, storeUrl ?? "", schemaOf(dir)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    // Killed once it has packed some rows, wherever it is then: reading, packing or committing.
    const deadline = Date.now() + 30_000;
    const packedSoFar = () => Number(/packed (\d+)\n(?![\s\S]*packed)/.exec(out)?.[1] ?? 0);
    while (packedSoFar() < 100 && !out.includes("done") && Date.now() < deadline) await sleep(5);
    child.kill("SIGKILL");
    expect(await exited, out).toBe("SIGKILL");
    expect(out).not.toContain("done");

    const store = await open(dir);
    const mid = await storedRows(store);
    expectSameContent(mid, old);
    const halfway = [...mid.values()].filter((r) => isPacked(r)).length;
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(old.size);
    expect(await answers(store)).toEqual(before);
    await store.compactAll();
    const after = await storedRows(store);
    expectSameContent(after, old);
    expect([...after.values()].filter((r) => !isPacked(r)).length).toBeLessThanOrEqual(VARS * 2 * 4);
    expect(await answers(store)).toEqual(before);
    await expectIntact(store);
    await store.close();
  }, 120_000);
});
