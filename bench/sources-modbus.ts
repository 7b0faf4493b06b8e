// `node bench/sources-modbus.ts [seconds]` (default 30): the Modbus TCP driver polling 100
// contiguous input registers (uint16) at 10 Hz from a Modbus TCP device in its own process
// (tests/support/devices/modbusServer.ts, so the device's work does not share the driver's event loop).
//
// Target (issue 16): poll-time jitter p99 < 10 ms — how late each poll starts against its slot
// on the 100-ms grid (the driver schedules poll k at k × 100 ms, so lateness does not accumulate).
// Also printed, no target: polls made vs slots, skipped slots, requests per poll (1 expected:
// 100 contiguous registers), poll round-trip, values per poll, event-loop delay.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ModbusDataSource } from "../logger/sources/config.ts";
import { ModbusDriver } from "../logger/sources/modbus.ts";
import { freePort, startModbusServer } from "../tests/support/devices/modbusServer.ts";
import { machineLine } from "./machine.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);
const pct = (xs: number[], p: number) => (xs.length ? xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : Number.NaN);
const TARGET_P99_MS = 10;
const REGISTERS = 100;
const PERIOD_MS = 100;

if (process.argv[2] === "--device") {
  // the device process: serve until the parent goes away
  const dev = await startModbusServer({ port: Number(process.argv[3]), tickMs: PERIOD_MS });
  process.stdout.write(`ready ${dev.port}\n`);
  process.stdin.on("end", () => void dev.close().then(() => process.exit(0)));
  process.stdin.resume();
} else {
  await main();
}


async function main() {
  const seconds = Number(process.argv[2] ?? 30);
  if (!(seconds > 0)) throw new Error(`Duration must be a positive number of seconds, not ${process.argv[2]}`);
  say(machineLine());
  say(`Modbus TCP: ${REGISTERS} input registers (uint16, contiguous) polled every ${PERIOD_MS} ms for ${seconds} s; device in its own process`);

  const port = await freePort();
  const device = spawn(process.execPath, [import.meta.filename, "--device", String(port)], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    device.once("exit", (code) => reject(new Error(`device exited (${code})`)));
    device.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
  });

  const config: ModbusDataSource = {
    ID: 1,
    Name: "Bench PLC",
    Protocol: "modbus",
    Enabled: true,
    PeriodMs: PERIOD_MS,
    Connection: { Host: "127.0.0.1", Port: port, UnitId: 1, TimeoutMs: 1000 },
    Variables: Array.from({ length: REGISTERS }, (_, i) => ({
      VariableId: `v${i}`,
      Name: `R${i}`,
      Unit: "",
      RangeMin: 0,
      RangeMax: 65535,
      Precision: 0,
      Direction: "I" as const,
      Address: { Register: "input" as const, Address: 10 + i, Type: "uint16" as const, WordOrder: "big" as const, ByteOrder: "big" as const, Scale: 1, Offset: 0 },
    })),
  };
  const perPoll = new Map<number, number>();
  const roundTrip: number[] = [];
  const errors: string[] = [];
  const driver = new ModbusDriver(
    config,
    {
      value: (index, _v, t) => {
        perPoll.set(t, (perPoll.get(t) ?? 0) + 1);
        if (index === REGISTERS - 1) roundTrip.push(Date.now() - t);
      },
      bad: (_i, reason) => void errors.push(reason),
      state: (state, error) => state === "error" && errors.push(error ?? "error"),
    },
    { now: Date.now },
  );
  driver.start();
  // let the connection settle, then measure
  await new Promise((r) => setTimeout(r, 1000));
  driver.stats.lateMs.length = 0;
  const polls0 = driver.stats.polls;
  const skipped0 = driver.stats.skipped;
  perPoll.clear();
  roundTrip.length = 0;
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  driver.recordLateness = true;
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  driver.recordLateness = false;
  const elapsed = (Date.now() - t0) / 1000;
  lag.disable();
  await driver.stop();
  device.stdin.end();

  const late = driver.stats.lateMs;
  const polls = driver.stats.polls - polls0;
  const slots = Math.floor((elapsed * 1000) / PERIOD_MS);
  const full = [...perPoll.values()].filter((n) => n === REGISTERS).length;
  const p99 = pct(late, 99);
  say(`Polls: ${polls} in ${elapsed.toFixed(1)} s (${slots} slots), ${driver.stats.skipped - skipped0} slots skipped, ${full} polls with all ${REGISTERS} values; requests per poll: ${driver.requests.length}`);
  say(`Poll round trip (start → last value): p50 ${pct(roundTrip, 50)} ms, p99 ${pct(roundTrip, 99)} ms`);
  say(`Event-loop delay: p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);
  if (errors.length) say(`Errors: ${errors.length}, first: ${errors[0]}`);
  say(`Poll-time jitter (start − slot): p50 ${pct(late, 50)} ms, p99 ${p99} ms, max ${Math.max(...late)} ms over ${late.length} polls (target p99 < ${TARGET_P99_MS} ms) ${p99 < TARGET_P99_MS ? "PASS" : "FAIL"}`);
  say(`Load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const ok = p99 < TARGET_P99_MS && errors.length === 0 && late.length > 0;
  say(ok ? "Modbus TCP target met." : "Modbus TCP target missed.");
  process.exit(ok ? 0 : 1);
}
