// `node bench/sources-mqtt.ts [seconds per round] [rounds]` (default 5 s × 3): MQTT data source
// throughput (issue 16). Debian's mosquitto runs on a spare port; a publisher in its own process
// sends single-value plain-number messages to 1000 topics at OFFERED messages/s in total; this
// process is the logger side: the real MQTT driver and SourceManager feeding a real SeriesStore
// (flushed every 500 ms like the logger), on one thread.
//
// Targets (medians over the rounds):
// * ≥ 50,000 messages/s received into the store (messages the driver took per second of the round);
// * p99 message-to-stored delay < 200 ms: the moment a value is appended to the store minus the
//   moment the publisher sent it (the value is the send time, ms modulo 1e6 — exact in float32;
//   both clocks are this machine's);
// * one core: this process's CPU time over the round ≤ 100 % of one core.
// Also printed: stored samples / messages (a message in a slot already holding one replaces it:
// the grid keeps the last value per slot), the publisher's achieved rate.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { LiveValues } from "../logger/model/live.ts";
import { emptyModel } from "../logger/model/types.ts";
import type { DataSource } from "../logger/sources/config.ts";
import { SourceManager } from "../logger/sources/manager.ts";
import { mqttDriver } from "../logger/sources/mqtt.ts";
import { openDb } from "../logger/store/db.ts";
import { migrate } from "../logger/store/migrations.ts";
import { SeriesStore } from "../logger/store/series/store.ts";
import { startMosquitto } from "../tests/support/mosquitto.ts";
import { machineLine } from "./machine.ts";

const TOPICS = 1000;
// Per topic 52 messages/s: 19 ms apart on a 10-ms grid, so jitter rarely puts two in one slot.
// (Every variable costs the store a partial-block write per flush: more topics, more flush work.)
const OFFERED = 52_000;
const PERIOD_MS = 10;
const RATE_TARGET = 50_000;
const DELAY_TARGET_MS = 200;
const WRAP = 1e6;
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => (xs.length ? xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : Number.NaN);
const median = (xs: number[]) => pct(xs, 50);
// Not Math.max(...xs): a round holds hundreds of thousands of delays (too many arguments).
const maxOf = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);


// ---- the publisher (child process): `--publish <url> <rate> <topics>` ----

async function publisher(url: string, rate: number, topics: number): Promise<void> {
  const client = mqtt.connect(url, { clientId: "bench-publisher", reconnectPeriod: 0 });
  await new Promise<void>((r) => client.once("connect", () => r()));
  process.send!({ ready: true });
  const t0 = performance.now();
  let sent = 0;
  let stop = false;
  process.on("message", () => (stop = true));
  // The bench ended without telling (it failed): do not keep publishing.
  process.on("disconnect", () => process.exit(1));
  while (!stop) {
    const due = Math.floor(((performance.now() - t0) * rate) / 1000);
    // A burst is capped so a stall does not turn into a flood.
    // QoS 0 PUBLISH packets encoded here and written in one go: mqtt.js's publish() costs more
    // than the broker and the logger together, and would measure the publisher, not the logger.
    const parts: Buffer[] = [];
    for (let n = Math.min(due - sent, rate / 50); n > 0; n--, sent++) parts.push(publishPacket(`bench/t${sent % topics}`, String(Date.now() % WRAP)));
    if (parts.length) (client as unknown as { stream: NodeJS.WritableStream }).stream.write(Buffer.concat(parts));
    await new Promise((r) => setTimeout(r, 2));
  }
  const secs = (performance.now() - t0) / 1000;
  process.send!({ sent, rate: sent / secs });
  client.end(false, {}, () => process.exit(0));
}

/** An MQTT 3.1.1 PUBLISH packet, QoS 0, no retain (short topics and payloads: one length byte). */
function publishPacket(topic: string, payload: string): Buffer {
  const t = Buffer.from(topic);
  const p = Buffer.from(payload);
  const rest = 2 + t.length + p.length;
  if (rest > 127) throw new Error("bench packets are short");
  return Buffer.concat([Buffer.from([0x30, rest, t.length >> 8, t.length & 0xff]), t, p]);
}

// ---- the logger side ----

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 3);
  if (!(seconds > 0) || !(rounds >= 1)) throw new Error("usage: node bench/sources-mqtt.ts [seconds per round] [rounds]");
  say(`MQTT data source: ${TOPICS} topics, ${OFFERED} messages/s offered, period ${PERIOD_MS} ms, ${rounds} rounds of ${seconds} s`);
  say(machineLine());

  const broker = await startMosquitto();
  // A failure must not leave the broker or the publisher running.
  process.on("exit", () => void broker.stop());
  const dir = mkdtempSync(join(tmpdir(), "loggia-bench-mqtt-"));
  const db = openDb(dir);
  await migrate(db);
  const store = new SeriesStore(dir);
  // As the logger: the paced flush (slices with turns for other events; issue 16).
  const flush = setInterval(() => void store.flushPaced(), 500);
  let stored = 0;
  let delays: number[] = [];
  const manager = new SourceManager({ db, store, live: new LiveValues(), model: emptyModel(), now: Date.now, log: () => {}, running: true, factories: { mqtt: mqttDriver } });
  manager.onSamples = (_id, _first, _periodUs, values) => {
    const now = Date.now() % WRAP;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      stored++;
      delays.push((now - v + WRAP) % WRAP);
    }
  };
  await manager.start();
  const config: DataSource = {
    ID: 1, Name: "Bench broker", Protocol: "mqtt", Enabled: true, PeriodMs: PERIOD_MS,
    Connection: { Url: broker.url, Username: "", ClientId: "bench-logger" },
    Variables: Array.from({ length: TOPICS }, (_, i) => ({
      VariableId: `ds1v${i + 1}`, Name: `t${i}`, Unit: "", RangeMin: 0, RangeMax: WRAP, Precision: 0, Direction: "I" as const,
      Address: { Topic: `bench/t${i}`, JsonPath: "", TimestampPath: "", Qos: 0 as const },
    })),
  };
  await manager.update(config);
  for (let i = 0; manager.states()[0]!.State !== "connected"; i++) {
    if (i > 800) throw new Error(`the source did not connect: ${manager.states()[0]!.LastError}`);
    await sleep(25);
  }
  // Subscriptions are sent right after the connection; give the broker a moment to take them.
  await sleep(300);

  const child = fork(import.meta.filename, ["--publish", broker.url, String(OFFERED), String(TOPICS)], { stdio: "inherit", execArgv: [] });
  const fromChild: { sent: number; rate: number }[] = [];
  await new Promise<void>((resolve) =>
    child.on("message", (m: { ready?: boolean; sent?: number; rate?: number }) => {
      if (m.ready) resolve();
      else if (m.sent !== undefined) fromChild.push(m as { sent: number; rate: number });
    }),
  );
  await sleep(2000); // warm-up

  const rates: number[] = [];
  const p99s: number[] = [];
  const cpuPcts: number[] = [];
  const ratios: number[] = [];
  const usPerMessage: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const before = manager.states()[0]!.Values;
    stored = 0;
    delays = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const received = manager.states()[0]!.Values - before;
    const rate = (received / wall) * 1000;
    const cpuPct = ((cpu.user + cpu.system) / 1000 / wall) * 100;
    const p99 = pct(delays, 99);
    rates.push(rate);
    p99s.push(p99);
    cpuPcts.push(cpuPct);
    ratios.push(stored / Math.max(1, received));
    usPerMessage.push((cpu.user + cpu.system) / Math.max(1, received));
    say(`round ${r}: ${Math.round(rate)} messages/s received, ${Math.round((stored / wall) * 1000)} samples/s stored (${((stored / Math.max(1, received)) * 100).toFixed(1)} %), delay p50 ${pct(delays, 50)} ms p99 ${p99} ms max ${maxOf(delays)} ms, CPU ${cpuPct.toFixed(0)} % of one core`);
  }
  child.send("stop");
  await new Promise<void>((r) => child.once("exit", () => r()));
  const errors = manager.states()[0]!.Errors;
  await manager.close();
  clearInterval(flush);
  store.close();
  db.close();
  await broker.close();
  rmSync(dir, { recursive: true, force: true });

  const rate = median(rates);
  const p99 = median(p99s);
  const cpuPct = median(cpuPcts);
  say(`Publisher achieved ${Math.round(fromChild[0]?.rate ?? 0)} messages/s (offered ${OFFERED}); bad values counted: ${errors}`);
  say(`Stored / received (median): ${(median(ratios) * 100).toFixed(1)} % — a message whose slot already held one replaces it (last value per slot)`);
  const ok1 = rate >= RATE_TARGET;
  const ok2 = p99 < DELAY_TARGET_MS;
  const ok3 = cpuPct <= 100;
  say(`Messages into the store: ${Math.round(rate)}/s median (target ≥ ${RATE_TARGET}; ratio ${(rate / RATE_TARGET).toFixed(2)}) ${ok1 ? "PASS" : "FAIL"}`);
  say(`Message-to-stored delay: p99 ${p99} ms median of rounds (target < ${DELAY_TARGET_MS} ms; ratio ${(p99 / DELAY_TARGET_MS).toFixed(2)}) ${ok2 ? "PASS" : "FAIL"}`);
  say(`Logger side CPU: ${cpuPct.toFixed(0)} % of one core median (target ≤ 100 %: one core) ${ok3 ? "PASS" : "FAIL"}`);
  // On a loaded machine the rate is bounded by what the broker and publisher get; this is the
  // logger side's own cost, whatever the load: how many messages one core would take.
  const us = median(usPerMessage);
  say(`Logger side cost: ${us.toFixed(1)} µs CPU per message (median) — one core would take ~${Math.round(1e6 / us)} messages/s (figure, no target)`);
  say(`Load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  process.exit(ok1 && ok2 && ok3 ? 0 : 1);
}

if (process.argv[2] === "--publish") await publisher(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
else await main();
