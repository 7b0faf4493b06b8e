// `node bench/sources-opcua.ts [seconds]` (default 60): the OPC UA driver with 1,000 monitored
// items sampled every 100 ms from an OPC UA server in its own process
// (tests/support/devices/opcuaServer.ts with its Bench folder).
//
// Target (issue 16): no value lost. Each bench item's value goes up by one every time the server
// samples it, so for every item the values the driver reports must be consecutive (a gap is a
// lost value) and, once the server stops changing them and the last notifications are drained,
// the last value received must be the server's last. Also printed, no target: values per item
// against the nominal seconds × 10 (the server's sampling timer runs slower on a loaded machine;
// what it sampled is printed too), the driver process's CPU use and event-loop delay.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import type { OpcuaDataSource } from "../logger/sources/config.ts";
import { OpcuaDriver } from "../logger/sources/opcua.ts";
import { freePort } from "../tests/support/devices/modbusServer.ts";
import { startOpcuaServer } from "../tests/support/devices/opcuaServer.ts";
import { machineLine } from "./machine.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);
const ITEMS = 1000;
const PERIOD_MS = 100;

if (process.argv[2] === "--device") {
  // the server process: "freeze" stops the values changing and answers the counters a moment later
  const dev = await startOpcuaServer({ port: Number(process.argv[3]), benchItems: ITEMS });
  process.stdout.write("ready\n");
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line !== "freeze") return;
    dev.freezeBench();
    setTimeout(() => process.stdout.write(`counters ${JSON.stringify(Array.from(dev.benchCounters))}\n`), 500);
  });
  process.stdin.on("end", () => void dev.close().then(() => process.exit(0)));
} else {
  await main();
}


async function main() {
  const seconds = Number(process.argv[2] ?? 60);
  if (!(seconds > 0)) throw new Error(`Duration must be a positive number of seconds, not ${process.argv[2]}`);
  say(machineLine());
  say(`OPC UA: ${ITEMS} monitored items sampled every ${PERIOD_MS} ms for ${seconds} s; server in its own process`);

  const port = await freePort();
  const device = spawn(process.execPath, [import.meta.filename, "--device", String(port)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: device.stdout });
  let counters: ((c: number[]) => void) | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    device.once("exit", (code) => reject(new Error(`server exited (${code})`)));
    lines.on("line", (line) => {
      if (line === "ready") resolve();
      if (line.startsWith("counters ")) counters?.(JSON.parse(line.slice(9)) as number[]);
    });
  });
  await ready;

  const config: OpcuaDataSource = {
    ID: 1,
    Name: "Bench server",
    Protocol: "opcua",
    Enabled: true,
    PeriodMs: PERIOD_MS,
    Connection: { Endpoint: `opc.tcp://127.0.0.1:${port}`, SecurityMode: "None", SecurityPolicy: "None", Auth: "anonymous", Username: "" },
    Variables: Array.from({ length: ITEMS }, (_, i) => ({
      VariableId: `v${i}`,
      Name: `Item${i}`,
      Unit: "",
      RangeMin: 0,
      RangeMax: 1e6,
      Precision: 0,
      Direction: "I" as const,
      Address: { NodeId: `ns=1;s=Bench.Item${i}` },
    })),
  };
  let measuring = false;
  const last = new Float64Array(ITEMS).fill(Number.NaN);
  const first = new Float64Array(ITEMS).fill(Number.NaN);
  const counts = new Uint32Array(ITEMS);
  let gaps = 0;
  let repeats = 0;
  const errors: string[] = [];
  let connected: () => void = () => {};
  const up = new Promise<void>((r) => (connected = r));
  const driver = new OpcuaDriver(
    config,
    {
      value: (i, v) => {
        if (!Number.isNaN(last[i]!)) {
          if (v > last[i]! + 1) gaps += v - last[i]! - 1;
          else if (v <= last[i]!) repeats++;
        }
        last[i] = v;
        if (measuring) {
          if (Number.isNaN(first[i]!)) first[i] = v;
          counts[i]!++;
        }
      },
      bad: (_i, reason) => void errors.push(reason),
      state: (state, error) => {
        if (state === "connected") connected();
        if (state === "error") errors.push(error ?? "error");
      },
    },
    { now: Date.now },
  );
  const t0 = Date.now();
  driver.start();
  await up;
  say(`Connected and subscribed in ${Date.now() - t0} ms`);
  await new Promise((r) => setTimeout(r, 2000)); // settle: initial values, first publishes
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const cpu0 = process.cpuUsage();
  const m0 = Date.now();
  measuring = true;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const atEnd = Float64Array.from(last);
  const elapsed = (Date.now() - m0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  lag.disable();
  // stop the changes, drain, and compare the last value of every item with the server's
  const server = await new Promise<number[]>((resolve) => {
    counters = resolve;
    device.stdin.write("freeze\n");
  });
  await new Promise((r) => setTimeout(r, 2000));
  let behind = 0;
  server.forEach((c, i) => {
    if (last[i] !== c) behind++;
  });
  await driver.stop();
  device.stdin.end();

  const per = Array.from(counts).sort((a, b) => a - b);
  const expected = Math.round(elapsed * (1000 / PERIOD_MS));
  const total = per.reduce((a, b) => a + b, 0);
  say(`Values per item in ${elapsed.toFixed(1)} s: min ${per[0]}, median ${per[per.length >> 1]}, max ${per.at(-1)} (expected ${expected} at one per ${PERIOD_MS} ms); ${total.toLocaleString("en")} values, ${(total / elapsed).toFixed(0)} per s`);
  say(`Driver process: ${(((cpu.user + cpu.system) / 1e6 / elapsed) * 100).toFixed(1)} % of one core; event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);
  if (errors.length) say(`Errors: ${errors.length}, first: ${errors[0]}`);
  // Values the server made for each item while measuring: its counter went from first to last.
  let made = 0;
  for (let i = 0; i < ITEMS; i++) made += Number.isNaN(first[i]!) ? 0 : atEnd[i]! - first[i]! + 1;
  say(`Values the server sampled while measuring: ${made.toLocaleString("en")} (its sampling timer, not the driver, sets the rate: ${(made / ITEMS / elapsed).toFixed(2)} per item per s)`);
  const ok = gaps === 0 && behind === 0 && errors.length === 0 && total > 0;
  say(
    `Values lost: ${gaps} skipped in the sequences, ${behind} items not at the server's last value after draining, ${repeats} repeated, ${errors.length} errors (target: none lost) ${ok ? "PASS" : "FAIL"}`,
  );
  say(`Load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  say(ok ? "OPC UA target met." : "OPC UA target missed.");
  process.exit(ok ? 0 : 1);
}
