// `npm run bench`: ingest, storage and query-latency figures of the time-series store against
// the targets of the "Live data core" issue. Builds its data in a temp folder and removes it.
// `npm run bench -- --write` also writes bench/RESULTS.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { startLogger } from "../logger/server.ts";
import { mulberry32 } from "../logger/sim/prng.ts";
import { SeriesStore } from "../logger/store/series/store.ts";

const INGEST = { vars: 256, rateHz: 10_000, seconds: 10, batchMs: 100, flushMs: 500 };
const HISTORY = { rateHz: 40, days: 30 };
const RANGES: Array<[string, number]> = [
  ["1 min", 60e3],
  ["10 min", 600e3],
  ["1 h", 3600e3],
  ["6 h", 6 * 3600e3],
  ["1 d", 86400e3],
  ["7 d", 7 * 86400e3],
  ["30 d", 30 * 86400e3],
];
const RUNS = 41;
const PASSWORD = "Bench-Pass-1!";

type Row = { figure: string; value: string; target: string; ratio: string; pass: boolean | null };
const rows: Row[] = [];
const say = (line: string) => process.stdout.write(`${line}\n`);

function noiseBatches(n: number, len: number): Float32Array[] {
  const rnd = mulberry32(1);
  return Array.from({ length: n }, (_, b) => Float32Array.from({ length: len }, (_, i) => 20 + 5 * Math.sin((b * len + i) / 500) + rnd()));
}

function ingest(dir: string): void {
  const store = new SeriesStore(dir);
  const periodUs = 1e6 / INGEST.rateHz;
  store.defineSource({ Id: "bench", Name: "Ingest", PeriodUs: periodUs });
  const ids = Array.from({ length: INGEST.vars }, (_, i) => store.defineVariable({ Id: `v${i}`, SourceId: "bench", Name: `v${i}`, Unit: "" }).Id);
  const per = (INGEST.rateHz * INGEST.batchMs) / 1000;
  const batches = noiseBatches(16, per);
  const g0 = Math.floor((Date.now() * 1000) / periodUs);
  const steps = (INGEST.seconds * 1000) / INGEST.batchMs;
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    for (let v = 0; v < ids.length; v++) store.append(ids[v]!, g0 + s * per, batches[(s + v) % batches.length]!);
    if (((s + 1) * INGEST.batchMs) % INGEST.flushMs === 0) store.flush();
  }
  store.flush();
  const sec = (performance.now() - t0) / 1000;
  const samples = INGEST.vars * INGEST.rateHz * INGEST.seconds;
  const rate = samples / sec;
  store.close();
  rows.push({
    figure: `Ingest incl. rollups (${INGEST.vars} vars × ${INGEST.rateHz / 1000} kHz, ${INGEST.seconds} s of data, 1 core)`,
    value: `${(rate / 1e6).toFixed(2)} M samples/s`,
    target: "≥ 2.56 M samples/s",
    ratio: `${(rate / 2.56e6).toFixed(2)}× target`,
    pass: rate >= 2.56e6,
  });
}

function buildHistory(dir: string, endMs: number): { id: string; sid: string; samples: number } {
  const store = new SeriesStore(dir);
  const periodUs = 1e6 / HISTORY.rateHz;
  store.defineSource({ Id: "hist", Name: "History", PeriodUs: periodUs });
  store.defineVariable({ Id: "h", SourceId: "hist", Name: "Signal", Unit: "V" });
  const total = HISTORY.days * 86400 * HISTORY.rateHz;
  const g0 = Math.floor((endMs * 1000) / periodUs) - total + 1;
  const slice = HISTORY.rateHz * 3600;
  const buf = new Float32Array(slice);
  const rnd = mulberry32(2);
  const t0 = performance.now();
  let appendMs = 0;
  for (let off = 0; off < total; off += slice) {
    const n = Math.min(slice, total - off);
    for (let i = 0; i < n; i++) {
      const g = off + i;
      buf[i] = 100 * Math.sin(g / 86400) + 10 * Math.sin(g / 977) + rnd() - 0.5;
    }
    const a = performance.now();
    store.append("h", g0 + off, n === slice ? buf : buf.subarray(0, n));
    appendMs += performance.now() - a;
    if (off % (slice * 24 * 3) === 0) say(`  building history: ${Math.round((off / total) * 100)} %`);
  }
  store.flush();
  store.checkpoint();
  const bytes = store.sizeOnDisk();
  store.close();
  say(`  built ${(total / 1e6).toFixed(1)} M samples in ${((performance.now() - t0) / 1000).toFixed(1)} s (append ${(appendMs / 1000).toFixed(1)} s)`);
  const perSample = bytes / total;
  rows.push({
    figure: `Storage incl. rollups (${(total / 1e6).toFixed(1)} M float32 samples, ${(bytes / 2 ** 20).toFixed(0)} MiB)`,
    value: `${perSample.toFixed(3)} bytes/sample`,
    target: "≤ 4.5 bytes/sample",
    ratio: `${((perSample / 4) * 100).toFixed(0)} % of raw float32 (packed rows, issue 29)`,
    pass: perSample <= 4.5,
  });
  return { id: "h", sid: "hist", samples: total };
}

async function queries(dir: string, endMs: number, v: { id: string; sid: string; samples: number }): Promise<void> {
  const lg = await startLogger({ port: 0, dataDir: dir, adminPassword: PASSWORD, log: () => {} });
  try {
    const basic = Buffer.from("loggia-console:loggia-console-secret").toString("base64");
    const tok = await fetch(`${lg.url}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: "password", username: "admin", password: PASSWORD }).toString(),
    });
    const token = ((await tok.json()) as { access_token: string }).access_token;
    const startMs = endMs - HISTORY.days * 86400e3;
    const rnd = mulberry32(3);
    const p50s: number[] = [];
    for (const [label, range] of RANGES) {
      const times: number[] = [];
      let size = 0;
      for (let r = 0; r < RUNS + 5; r++) {
        // Random windows over the whole history, so caches do not flatter the figures.
        const end = Math.round(startMs + range + rnd() * (endMs - startMs - range));
        const t0 = performance.now();
        const res = await fetch(`${lg.url}/history/data`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ Start: end - range, End: end, Variables: [{ SID: v.sid, VID: v.id }], Points: 1000 }),
        });
        const body = (await res.json()) as { Success: boolean; Data: { TimeSeries: { Size: number } }[] };
        const ms = performance.now() - t0;
        if (!body.Success) throw new Error(`query failed: ${JSON.stringify(body)}`);
        size = body.Data[0].TimeSeries.Size;
        if (r >= 5) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length / 2)]!;
      const p95 = times[Math.floor(times.length * 0.95)]!;
      p50s.push(p50);
      rows.push({
        figure: `1000-point query over HTTP, ${label} (${size} buckets)`,
        value: `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`,
        target: "p50 ≤ 20 ms",
        ratio: `${(p50 / 20).toFixed(2)}× budget`,
        pass: p50 <= 20,
      });
    }
    const ratio = p50s.at(-1)! / p50s[0]!;
    rows.push({
      figure: "Latency ratio p50(30 d) / p50(1 min)",
      value: ratio.toFixed(2),
      target: "≤ 2",
      ratio: "",
      pass: ratio <= 2,
    });
  } finally {
    await lg.close();
  }
}

function table(): string {
  const lines = ["| Figure | Measured | Target | Ratio | Result |", "|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.value} | ${r.target} | ${r.ratio} | ${r.pass === null ? "" : r.pass ? "PASS" : "FAIL"} |`);
  return lines.join("\n");
}

const root = mkdtempSync(join(tmpdir(), "loggia-bench-"));
const started = performance.now();
try {
  say(`Loggia store benchmark — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
  say("ingest…");
  ingest(join(root, "ingest"));
  say("history…");
  const endMs = Math.floor(Date.now() / 1000) * 1000;
  const v = buildHistory(join(root, "history"), endMs);
  say("queries…");
  await queries(join(root, "history"), endMs, v);
  const text = table();
  say("");
  say(text);
  const failed = rows.filter((r) => r.pass === false).length;
  say("");
  say(`${failed === 0 ? "ALL PASS" : `${failed} FAIL`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (process.argv.includes("--write")) {
    const head =
      `# Benchmark results\n\n\`npm run bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}.\n\n` +
      `Ingest: ${INGEST.vars} variables at ${INGEST.rateHz} Hz appended in ${INGEST.batchMs} ms batches, flushed every ${INGEST.flushMs} ms, timed without generating the data. ` +
      `Storage and queries: one variable at ${HISTORY.rateHz} Hz over ${HISTORY.days} days; each range is queried ${RUNS} times (after 5 warm-ups) at random positions ` +
      "over HTTP (`POST /history/data`, `Points: 1000`, JSON parsed), against a logger started on that store.\n\n";
    writeFileSync(new URL("./RESULTS.md", import.meta.url), `${head}${text}\n`);
  }
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
