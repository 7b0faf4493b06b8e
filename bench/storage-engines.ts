// `node bench/storage-engines.ts [--short] [--write]`: the series store's engines side by side in
// ONE run (issue 17): the embedded store (series.db), the PostgreSQL store (logger/store/series/
// pg.ts) and a naive PostgreSQL schema — one row per sample (variable, t, value) with a btree
// index, min/max by GROUP BY time bucket — the reference a user would otherwise build.
//
// Per engine: ingest samples/s (this process is the logger side, one thread; the PostgreSQL server
// runs in its own processes), bytes per sample on disk (file sizes; pg_total_relation_size), and
// the p50 of a 1000-bucket min/max query over 1 min … 30 d at random positions in 30 days of one
// variable. Full size: 40 Hz × 30 d = 103.7 M samples in every engine (the naive table filled
// with COPY, its index built after the load, as a careful user would). --short (npm run bench):
// 2 Hz / 0.5 Hz, for a quick check.
// Queries run in-process through the store's own query code (planQuery + trackColumns via
// SeriesStore.read), the naive ones as one SQL statement each; no HTTP on either side.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { mulberry32 } from "../logger/sim/prng.ts";
import { PgSeries } from "../logger/store/series/pg.ts";
import { planQuery, trackColumns } from "../logger/store/series/query.ts";
import { SeriesStore } from "../logger/store/series/store.ts";
import { startPostgres } from "../tests/support/postgres.ts";
import { machineLine, median } from "./machine.ts";

const short = process.argv.includes("--short");
// 10 s of data in both modes: with less, the fixed costs (defining 256 variables, the last write) weigh on the rate.
const INGEST = { vars: 256, rateHz: 10_000, seconds: 10, batchMs: 100, flushMs: 500, rounds: 3 };
/** Naive ingest: the same shape, fewer seconds (one row per sample is slow to fill). */
const NAIVE_INGEST_SECONDS = short ? 0.5 : 1;
const DAYS = 30;
const HISTORY_HZ = short ? 2 : 40;
const NAIVE_HZ = short ? 0.5 : HISTORY_HZ;
const RANGES: Array<[string, number]> = [
  ["1 min", 60e3],
  ["1 h", 3600e3],
  ["1 d", 86400e3],
  ["7 d", 7 * 86400e3],
  ["30 d", 30 * 86400e3],
];
const RUNS = short ? 9 : 21;
const WARMUP = 3;
/** The naive table answers 30 days of 100 M rows in many seconds: fewer runs per round there. */
const NAIVE_RUNS = short ? 5 : 3;
const NAIVE_WARMUP = short ? 1 : 0;
const PG_PORT = 55455;
const say = (line: string) => process.stdout.write(`${line}\n`);

type Engine = "embedded" | "postgres" | "naive";
const ENGINES: Engine[] = ["embedded", "postgres", "naive"];
const ingestRate: Record<Engine, number> = { embedded: 0, postgres: 0, naive: 0 };
const bytesPerSample: Record<Engine, number> = { embedded: 0, postgres: 0, naive: 0 };
const p50: Record<Engine, number[]> = { embedded: [], postgres: [], naive: [] };
const sizes: Record<Engine, number> = { embedded: 0, postgres: 0, naive: 0 };

function noiseBatches(n: number, len: number): Float32Array[] {
  const rnd = mulberry32(1);
  return Array.from({ length: n }, (_, b) => Float32Array.from({ length: len }, (_, i) => 20 + 5 * Math.sin((b * len + i) / 500) + rnd()));
}

/** One ingest round into a store: appends in 100 ms batches, flush every 500 ms of data, until stored. */
async function ingestStore(store: SeriesStore): Promise<number> {
  const periodUs = 1e6 / INGEST.rateHz;
  store.defineSource({ Id: "bench", Name: "Ingest", PeriodUs: periodUs });
  const ids = Array.from({ length: INGEST.vars }, (_, i) => store.defineVariable({ Id: `v${i}`, SourceId: "bench", Name: `v${i}`, Unit: "" }).Id);
  await store.settled();
  const per = (INGEST.rateHz * INGEST.batchMs) / 1000;
  const batches = noiseBatches(16, per);
  const g0 = Math.floor((Date.now() * 1000) / periodUs);
  const steps = (INGEST.seconds * 1000) / INGEST.batchMs;
  let inflight: Promise<void> = Promise.resolve();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    for (let v = 0; v < ids.length; v++) store.append(ids[v]!, g0 + s * per, batches[(s + v) % batches.length]!);
    // Each batch is an event of its own in the logger: the write in flight progresses in between.
    await new Promise<void>((done) => setImmediate(done));
    if (((s + 1) * INGEST.batchMs) % INGEST.flushMs === 0) {
      // One write in flight while the next 500 ms are appended (the logger's timer does the same).
      await inflight;
      inflight = store.flush();
    }
  }
  await inflight;
  await store.settled();
  const cpu = process.cpuUsage(cpu0);
  const samples = INGEST.vars * INGEST.rateHz * INGEST.seconds;
  cpuRate.push(samples / ((cpu.user + cpu.system) / 1e6));
  return samples / ((performance.now() - t0) / 1000);
}

/** Samples per second of this process's CPU time (the logger side), per ingest call in order. */
const cpuRate: number[] = [];

/** Rows into `table` with COPY … FROM STDIN (text format), one chunk of lines at a time. */
async function copyRows(pool: pg.Pool, table: string, columns: string, chunks: Iterable<string>): Promise<void> {
  const client = await pool.connect();
  try {
    await pipeline(Readable.from(chunks), client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`)));
  } finally {
    client.release();
  }
}

/** Naive ingest: one row per sample, COPY of each 100 ms batch of all variables (256 000 rows). */
async function ingestNaive(pool: pg.Pool, table: string): Promise<number> {
  await pool.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (variable integer NOT NULL, t bigint NOT NULL, value real); CREATE INDEX ON ${table} (variable, t)`);
  const periodUs = 1e6 / INGEST.rateHz;
  const per = (INGEST.rateHz * INGEST.batchMs) / 1000;
  const batches = noiseBatches(16, per);
  const g0 = Math.floor((Date.now() * 1000) / periodUs);
  const steps = (NAIVE_INGEST_SECONDS * 1000) / INGEST.batchMs;
  function* lines() {
    for (let s = 0; s < steps; s++) {
      let text = "";
      for (let v = 0; v < INGEST.vars; v++) {
        const b = batches[(s + v) % batches.length]!;
        for (let i = 0; i < per; i++) text += `${v}\t${(g0 + s * per + i) * periodUs}\t${b[i]}\n`;
      }
      yield text;
    }
  }
  const t0 = performance.now();
  await copyRows(pool, table, "variable, t, value", lines());
  return (INGEST.vars * INGEST.rateHz * NAIVE_INGEST_SECONDS) / ((performance.now() - t0) / 1000);
}

function signal(g: number, rnd: () => number): number {
  return 100 * Math.sin(g / 86400) + 10 * Math.sin(g / 977) + rnd() - 0.5;
}

/** 30 days of one variable at HISTORY_HZ into a store; returns samples. */
async function buildStore(store: SeriesStore, endMs: number): Promise<number> {
  const periodUs = 1e6 / HISTORY_HZ;
  store.defineSource({ Id: "hist", Name: "History", PeriodUs: periodUs });
  store.defineVariable({ Id: "h", SourceId: "hist", Name: "Signal", Unit: "V" });
  const total = DAYS * 86400 * HISTORY_HZ;
  const g0 = Math.floor((endMs * 1000) / periodUs) - total + 1;
  const slice = HISTORY_HZ * 3600;
  const buf = new Float32Array(slice);
  const rnd = mulberry32(2);
  for (let off = 0; off < total; off += slice) {
    const n = Math.min(slice, total - off);
    for (let i = 0; i < n; i++) buf[i] = signal(off + i, rnd);
    store.append("h", g0 + off, n === slice ? buf : buf.subarray(0, n));
    if ((off / slice) % 24 === 23) await store.flush();
  }
  await store.settled();
  return total;
}

async function buildNaive(pool: pg.Pool, table: string, endMs: number): Promise<number> {
  await pool.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (variable integer NOT NULL, t bigint NOT NULL, value real)`);
  const periodUs = 1e6 / NAIVE_HZ;
  const total = DAYS * 86400 * NAIVE_HZ;
  const g0 = Math.floor((endMs * 1000) / periodUs) - total + 1;
  const rnd = mulberry32(2);
  const slice = 200_000;
  function* lines() {
    for (let off = 0; off < total; off += slice) {
      const n = Math.min(slice, total - off);
      let text = "";
      for (let i = 0; i < n; i++) text += `1\t${(g0 + off + i) * periodUs}\t${Math.fround(signal(((off + i) * HISTORY_HZ) / NAIVE_HZ, rnd))}\n`;
      yield text;
    }
  }
  await copyRows(pool, table, "variable, t, value", lines());
  // The index after the load (faster than maintaining it row by row), as a careful user would.
  await pool.query(`CREATE INDEX ON ${table} (variable, t)`);
  await pool.query(`VACUUM ANALYZE ${table}`);
  return total;
}

async function queryTimes(run: (startUs: number, endUs: number) => Promise<unknown>, endMs: number, runs = RUNS, warmup = WARMUP): Promise<number[]> {
  const startMs = endMs - DAYS * 86400e3;
  const rnd = mulberry32(3);
  const out: number[] = [];
  for (const [, range] of RANGES) {
    const times: number[] = [];
    for (let r = 0; r < runs + warmup; r++) {
      // Random windows over the whole history, so caches do not flatter the figures.
      const end = Math.round(startMs + range + rnd() * (endMs - startMs - range));
      const t0 = performance.now();
      await run((end - range) * 1000, end * 1000);
      if (r >= warmup) times.push(performance.now() - t0);
    }
    out.push(median(times));
  }
  return out;
}

function storeQuery(store: SeriesStore) {
  const v = store.variable("h")!;
  return (startUs: number, endUs: number) => {
    const plan = planQuery(startUs, endUs, 1000, v ? store.source("hist")!.PeriodUs : 1);
    const parts = store.partsOf(v, startUs, endUs);
    return store.read((rows) => trackColumns(rows, parts, plan, 0, plan.size));
  };
}

function naiveQuery(pool: pg.Pool, table: string) {
  return async (startUs: number, endUs: number) => {
    const w = Math.max(1, Math.ceil((endUs - startUs) / 1000));
    const res = await pool.query(
      `SELECT (t - $2) / $4 AS b, min(value), max(value) FROM ${table} WHERE variable = $1 AND t >= $2 AND t < $3 GROUP BY 1 ORDER BY 1`,
      [1, startUs, endUs, w],
    );
    return res.rows;
  };
}

const NOTES =
  "Reading the figures: the PostgreSQL store's 1 d query is its slowest — at 40 Hz a 1000-bucket day is answered from ~66 level-1 rollup chunks (16 KB each, fetched in one query and hex-decoded by the driver), where 7 d and 30 d use the next level's few chunks. " +
  "The per-CPU-second ingest rate is this process alone (the PostgreSQL server works in its own processes). " +
  "The naive table's query times grow with the rows in the window (a full scan of its index range per query).";

const START = "<!-- storage-engines:start -->";
const END = "<!-- storage-engines:end -->";

/** Replaces (or appends) this benchmark's section of RESULTS.md, between its own markers. */
function writeSection(file: string, body: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const section = `${START}\n${body.trim()}\n${END}`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  writeFileSync(file, a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`);
}

const root = mkdtempSync(join(tmpdir(), "loggia-engines-"));
const started = performance.now();
say(`Loggia storage engines benchmark${short ? " (short)" : ""} — Node ${process.version}`);
say(machineLine());
say("Figures are indicative: the machine is shared and loaded; compare the ratios, measured in this one run.");
const server = await startPostgres({ port: PG_PORT, settings: { shared_buffers: "256MB", max_wal_size: "4GB" } });
const pool = new pg.Pool({ connectionString: server.url, max: 4 });
pool.on("error", () => {});
let failed = 0;
try {
  // ---- ingest: median of rounds, each into a fresh store ----
  say("ingest…");
  const rounds: Record<Engine, number[]> = { embedded: [], postgres: [], naive: [] };
  const cpuOf: Record<Engine, number[]> = { embedded: [], postgres: [], naive: [] };
  for (let r = 0; r < INGEST.rounds; r++) {
    const file = new SeriesStore(join(root, `ingest${r}`));
    rounds.embedded.push(await ingestStore(file));
    cpuOf.embedded.push(cpuRate.at(-1)!);
    await file.close();
    rmSync(join(root, `ingest${r}`), { recursive: true, force: true });
    const onPg = await SeriesStore.open(await PgSeries.connect(server.url, `loggia_ingest${r}`));
    rounds.postgres.push(await ingestStore(onPg));
    cpuOf.postgres.push(cpuRate.at(-1)!);
    await onPg.close();
    await pool.query(`DROP SCHEMA loggia_ingest${r} CASCADE`);
    rounds.naive.push(await ingestNaive(pool, `naive_ingest`));
    await pool.query("DROP TABLE naive_ingest");
    say(`  round ${r + 1}: embedded ${(rounds.embedded[r]! / 1e6).toFixed(2)}, PostgreSQL store ${(rounds.postgres[r]! / 1e6).toFixed(2)}, naive ${(rounds.naive[r]! / 1e6).toFixed(3)} M samples/s`);
  }
  for (const e of ENGINES) ingestRate[e] = median(rounds[e]);
  const perCpu = { embedded: median(cpuOf.embedded), postgres: median(cpuOf.postgres) };

  // ---- 30 days of history, sizes, queries ----
  const endMs = Math.floor(Date.now() / 1000) * 1000;
  say(`history: ${DAYS} d at ${HISTORY_HZ} Hz (${((DAYS * 86400 * HISTORY_HZ) / 1e6).toFixed(1)} M samples) into both stores, ${NAIVE_HZ} Hz into the naive table…`);
  let t = performance.now();
  const file = new SeriesStore(join(root, "history"));
  sizes.embedded = await buildStore(file, endMs);
  file.checkpoint();
  bytesPerSample.embedded = file.sizeOnDisk() / sizes.embedded;
  say(`  embedded built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const pgb = await PgSeries.connect(server.url, "loggia_history");
  const onPg = await SeriesStore.open(pgb);
  sizes.postgres = await buildStore(onPg, endMs);
  await onPg.close();
  await pool.query("VACUUM ANALYZE");
  say(`  PostgreSQL store built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  sizes.naive = await buildNaive(pool, "naive_history", endMs);
  say(`  naive table built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // Reopened: queries start from what is stored, not from the writer's memory.
  const pgq = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_history"));
  bytesPerSample.postgres = (await pgq.size()) / sizes.postgres;
  bytesPerSample.naive = Number((await pool.query("SELECT pg_total_relation_size('naive_history') AS n")).rows[0].n) / sizes.naive;
  say("queries…");
  const qRounds: Record<Engine, number[][]> = { embedded: [], postgres: [], naive: [] };
  for (let r = 0; r < 3; r++) {
    qRounds.embedded.push(await queryTimes(storeQuery(file), endMs));
    qRounds.postgres.push(await queryTimes(storeQuery(pgq), endMs));
    qRounds.naive.push(await queryTimes(naiveQuery(pool, "naive_history"), endMs, NAIVE_RUNS, NAIVE_WARMUP));
  }
  for (const e of ENGINES) p50[e] = RANGES.map((_, i) => median(qRounds[e].map((q) => q[i]!)));
  await file.close();
  await pgq.close();

  // ---- report ----
  const f = (n: number, d = 2) => n.toFixed(d);
  const lines = [
    `| Figure | Embedded store | PostgreSQL store | Naive PostgreSQL | Target (PostgreSQL store) | Result |`,
    `|---|---|---|---|---|---|`,
  ];
  const check = (ok: boolean) => (ok ? "PASS" : (failed++, "FAIL"));
  lines.push(
    `| Ingest, M samples/s, wall clock until stored (median of ${INGEST.rounds}) | ${f(ingestRate.embedded / 1e6)} | ${f(ingestRate.postgres / 1e6)} | ${f(ingestRate.naive / 1e6, 3)} | ≥ 2.56 | ${check(ingestRate.postgres >= 2.56e6)} |`,
  );
  lines.push(`| Ingest, M samples per second of the logger process's CPU (one thread) | ${f(perCpu.embedded / 1e6)} | ${f(perCpu.postgres / 1e6)} | | | |`);
  lines.push(
    `| Ingest vs naive | ${f(ingestRate.embedded / ingestRate.naive, 1)}× | ${f(ingestRate.postgres / ingestRate.naive, 1)}× | 1× | ≥ 10× | ${check(ingestRate.postgres >= 10 * ingestRate.naive)} |`,
  );
  lines.push(
    `| Bytes per sample on disk | ${f(bytesPerSample.embedded, 3)} | ${f(bytesPerSample.postgres, 3)} | ${f(bytesPerSample.naive, 1)} | ≤ 5 | ${check(bytesPerSample.postgres <= 5)} |`,
  );
  lines.push(
    `| Bytes per sample vs naive | ${f(bytesPerSample.embedded / bytesPerSample.naive, 3)} | ${f(bytesPerSample.postgres / bytesPerSample.naive, 3)} | 1 | ≤ 0.1 | ${check(bytesPerSample.postgres <= bytesPerSample.naive / 10)} |`,
  );
  RANGES.forEach(([label], i) => {
    lines.push(
      `| 1000-bucket min/max p50, ${label} (ms) | ${f(p50.embedded[i]!)} | ${f(p50.postgres[i]!)} | ${f(p50.naive[i]!, 1)} | ≤ 30 | ${check(p50.postgres[i]! <= 30)} |`,
    );
  });
  const table = lines.join("\n");
  const setup =
    `Ingest: ${INGEST.vars} variables × ${INGEST.rateHz / 1000} kHz in ${INGEST.batchMs} ms batches, a flush every ${INGEST.flushMs} ms of data, timed until stored; ` +
    `${INGEST.seconds} s of data per round for the stores, ${NAIVE_INGEST_SECONDS} s for the naive table (COPY FROM STDIN in text format, 256 000 rows per 100 ms batch, pg-copy-streams). ` +
    `History: one variable over ${DAYS} days — ${(sizes.embedded / 1e6).toFixed(1)} M samples in each store, ${(sizes.naive / 1e6).toFixed(1)} M in the naive table ` +
    (NAIVE_HZ === HISTORY_HZ ? `(the same ${NAIVE_HZ} Hz; filled by COPY, index built after the load). ` : `(${NAIVE_HZ} Hz: its p50s read ${HISTORY_HZ / NAIVE_HZ}× fewer rows than the stores would make it read at ${HISTORY_HZ} Hz). `) +
    `Queries: ${RUNS} random windows per range after ${WARMUP} warm-ups (naive: ${NAIVE_RUNS} after ${NAIVE_WARMUP}), p50 per round, median of 3 rounds; in-process, no HTTP. ` +
    `PostgreSQL 15 (Debian) on this machine, shared_buffers 256MB, fsync and synchronous_commit on; TimescaleDB ${pgb.timescale ? "present (hypertable)" : "absent (declarative weekly partitions)"}.`;
  say("");
  say(table);
  say("");
  say(setup);
  say(`${failed === 0 ? "ALL PASS" : `${failed} FAIL`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (process.argv.includes("--write")) {
    const body =
      `## Storage engines (issue 17)\n\n\`node bench/storage-engines.ts${short ? " --short" : ""} --write\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}. ${machineLine()}. ` +
      `Indicative: the machine is shared and was loaded while this ran; the ratios between the three engines, measured in this one run, are the figures to read.\n\n` +
      `${table}\n\n${setup}\n\n${NOTES}\n` +
      `Ingest rounds (M samples/s): embedded ${rounds.embedded.map((r) => f(r / 1e6)).join(", ")}; PostgreSQL store ${rounds.postgres.map((r) => f(r / 1e6)).join(", ")}; naive ${rounds.naive.map((r) => f(r / 1e6, 3)).join(", ")}.\n`;
    writeSection(new URL("./RESULTS.md", import.meta.url).pathname, body);
  }
} finally {
  await pool.end();
  await server.stop();
  rmSync(root, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
