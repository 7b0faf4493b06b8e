// `npm exec -- node bench/import.ts [MB] [--no-flags]`: the CSV import's figures — a file of
// ~100 MB (or the size given) sent through HTTP in 8 MB chunks into a logger running as its own
// process with LOGGER_NODE_FLAGS (logger/flags.ts; --no-flags: Node's defaults), at ≥ 30 MB/s
// from opening the session until its close has answered, while the logger's resident memory
// grows by < 50 MB (peak, sampled every 50 ms, against the logger at rest after a small warm-up
// import). Also prints the logger's own CPU time, a figure that other load on the machine does
// not change. Exits 1 when a target is missed.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LOGGER_NODE_FLAGS } from "../logger/flags.ts";
import { freePort } from "./stack.ts";
import { cpuSec, rssMb } from "./machine.ts";
import { waitForLine } from "../tests/support/childLine.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const CLIENT = Buffer.from("loggia-console:loggia-console-secret").toString("base64");
const TARGET_MB_S = 30;
const TARGET_GROWTH_MB = 50;
const CHUNK = 8 * 1024 * 1024;
const COLUMNS = 8;
const PERIOD_US = 1000;
const say = (line: string) => process.stdout.write(`${line}\n`);

const args = process.argv.slice(2);
const flags = args.includes("--no-flags") ? [] : LOGGER_NODE_FLAGS;
const sizeMb = Number(args.find((a) => !a.startsWith("--")) ?? 100);
if (!(sizeMb > 0)) {
  say("usage: node bench/import.ts [size in MB, default 100] [--no-flags]");
  process.exit(2);
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** A ';'-separated CSV with ',' decimals, as a German Excel writes it: 1 kHz rows of 8 channels. */
async function writeCsv(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let rows = 0;
  const t0 = Date.UTC(2025, 0, 6, 8) * 1000;
  out.write("Zeit;" + Array.from({ length: COLUMNS }, (_, c) => `Kanal ${c + 1}`).join(";") + "\n");
  out.write(";" + Array.from({ length: COLUMNS }, () => "V").join(";") + "\n");
  let seed = 1;
  while (written < bytes) {
    let block = "";
    for (let k = 0; k < 2000; k++, rows++) {
      const us = t0 + rows * PERIOD_US;
      const d = new Date(Math.floor(us / 1000));
      block += `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(us % 1_000_000, 6)}`;
      for (let c = 0; c < COLUMNS; c++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const v = 100 * Math.sin(rows / (200 + 37 * c)) + (seed / 2 ** 32 - 0.5);
        block += `;${v.toFixed(4).replace(".", ",")}`;
      }
      block += "\n";
    }
    written += Buffer.byteLength(block);
    if (!out.write(block)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
  return rows;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "loggia-bench-import-"));
  const csv = join(dir, "import.csv");
  say(`Writing a ${sizeMb} MB CSV (${COLUMNS} channels at ${1e6 / PERIOD_US} Hz, ';' and ',' decimals)…`);
  const rows = await writeCsv(csv, sizeMb * 1e6);
  const size = statSync(csv).size;

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...flags, join(root, "logger/main.ts")], {
    cwd: root,
    env: { ...process.env, LOGGER_PORT: String(port), DATA_DIR: join(dir, "data"), SIM: "off", ADMIN_PASSWORD: PASSWORD, BACKFILL: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let pass = false;
  try {
    await waitForLine(child, /logger listening on/, "the logger");
    const token = (
      (await (
        await fetch(`${url}/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${CLIENT}` },
          body: new URLSearchParams({ grant_type: "password", username: "admin", password: PASSWORD }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const auth = { Authorization: `Bearer ${token}` };
    const settings = { ColumnSeparator: ";", DecimalSeparator: ",", NameRowIndex: 0, UnitRowIndex: 1, ValuesStartRowIndex: 2, ValuesStartColumnIndex: 1, DateTimeFmtColumn1: "%Y-%m-%d %H:%M:%S.%%0us" };

    const importFile = async (sourceId: string, limit: number) => {
      const opened = await fetch(`${url}/history/data/import`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ CSVSettings: settings, SourceID: sourceId, SourceName: sourceId, MeasurementName: `Bench ${sourceId}` }),
      });
      if (!opened.ok) throw new Error(`open answered ${opened.status} ${await opened.text()}`);
      const id = ((await opened.json()) as { Data: { SessionId: string } }).Data.SessionId;
      const file = await open(csv);
      try {
        const buf = Buffer.alloc(CHUNK);
        for (let at = 0; at < limit; ) {
          const { bytesRead } = await file.read(buf, 0, Math.min(CHUNK, limit - at), at);
          if (bytesRead === 0) break;
          at += bytesRead;
          const sent = await fetch(`${url}/history/data/import/${id}`, { method: "POST", headers: auth, body: buf.subarray(0, bytesRead) });
          if (!sent.ok) throw new Error(`chunk answered ${sent.status} ${await sent.text()}`);
          await sent.arrayBuffer();
        }
      } finally {
        await file.close();
      }
      const closed = await fetch(`${url}/history/data/import/${id}`, { method: "DELETE", headers: auth });
      if (!closed.ok) throw new Error(`close answered ${closed.status} ${await closed.text()}`);
      return ((await closed.json()) as { Data: { Rows: number; SampleRateHz: number } }).Data;
    };

    // A small import first, so that the baseline is the logger at rest with its code loaded.
    const head = await open(csv);
    const first = Buffer.alloc(64 * 1024);
    await head.read(first, 0, first.length, 0);
    await head.close();
    await importFile("warm-up", first.lastIndexOf(10) + 1);
    await new Promise((r) => setTimeout(r, 500));
    const base = await rssMb(child.pid!);
    const cpu0 = await cpuSec(child.pid!);
    let peak = base ?? 0;
    const sampler = setInterval(async () => (peak = Math.max(peak, (await rssMb(child.pid!)) ?? 0)), 50);
    const t0 = performance.now();
    const done = await importFile("bench", size);
    const sec = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const after = await rssMb(child.pid!);
    const cpu1 = await cpuSec(child.pid!);
    if (after !== null) peak = Math.max(peak, after);

    const rate = size / 1e6 / sec;
    const growth = base === null ? null : peak - base;
    say(`Machine: ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}`);
    say(`Logger flags: ${flags.join(" ") || "(Node's defaults)"}`);
    say(`Imported ${(size / 1e6).toFixed(1)} MB (${done.Rows} rows × ${COLUMNS} channels at ${done.SampleRateHz} Hz) in ${sec.toFixed(2)} s`);
    if (cpu0 !== null && cpu1 !== null) say(`Logger CPU time: ${(cpu1 - cpu0).toFixed(2)} s = ${(size / 1e6 / (cpu1 - cpu0)).toFixed(0)} MB per CPU second`);
    say(`CSV import through HTTP: ${rate.toFixed(1)} MB/s (target ≥ ${TARGET_MB_S} MB/s; ${(rate / TARGET_MB_S).toFixed(2)}× target) ${rate >= TARGET_MB_S ? "PASS" : "FAIL"}`);
    say(
      `Logger resident memory growth: ${growth === null ? "n/a (no /proc)" : `${growth.toFixed(1)} MB at peak (${base!.toFixed(0)} → ${peak.toFixed(0)} MB; ${(after! - base!).toFixed(1)} MB after)`} (target < ${TARGET_GROWTH_MB} MB) ${growth === null ? "" : growth < TARGET_GROWTH_MB ? "PASS" : "FAIL"}`,
    );
    const complete = done.Rows === rows && done.SampleRateHz === 1e6 / PERIOD_US;
    if (!complete) say(`FAIL: the logger imported ${done.Rows} rows at ${done.SampleRateHz} Hz, the file has ${rows} at ${1e6 / PERIOD_US} Hz`);
    pass = complete && rate >= TARGET_MB_S && (growth === null || growth < TARGET_GROWTH_MB);
  } finally {
    if (child.exitCode === null) {
      child.kill();
      await new Promise((r) => child.once("exit", r));
    }
    rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = pass ? 0 : 1;
}

await main();
