import type { DataFormat, Device, Model, Module, Variable } from "../model/types.ts";
import { stableUuid, uniform } from "./prng.ts";
import type { ResolvedSim } from "./options.ts";
import { converter, digital, held, load, pressure, solar, speed, strain, temperature, vibration, wander } from "./signals.ts";
import type { Fill, SignalContext } from "./signals.ts";

// A small engine test programme around Modena: a bench controller (analog + digital I/O) in the
// test cell, a power meter at the substation that feeds it, and a weather station up in the
// Apennines on a flaky radio link. Locations are where each device is first seen; they are
// seeded into device metadata, where an administrator can change them.

export type Rig = {
  model: Model;
  fills: Map<string, Fill>;
  outputs: Map<string, { value: number; format: DataFormat }>;
  /** Whether a device delivers data at time t (ms); the weather station drops out now and then. */
  connectedAt(deviceId: string, tMs: number): boolean;
  /** The bench controller and its analog inputs: what the Simple Config screen edits. */
  bench: { deviceId: string; channels: string[] };
  /** New signals for a device's variables at another period (the sample rate changed). */
  refill(deviceId: string, periodUs: number): void;
};

type Channel = { name: string; unit: string; format?: DataFormat; dir?: "I" | "O"; precision: number; min: number; max: number; fill?: (c: SignalContext) => Fill };

const BENCH: Channel[] = [
  { name: "Oil temperature", unit: "°C", precision: 1, min: -20, max: 150, fill: (c) => temperature(c, 88, 6) },
  { name: "Coolant inlet temperature", unit: "°C", precision: 1, min: -20, max: 120, fill: (c) => temperature(c, 72, 4) },
  { name: "Coolant outlet temperature", unit: "°C", precision: 1, min: -20, max: 120, fill: (c) => temperature(c, 81, 5) },
  { name: "Test cell temperature", unit: "°C", precision: 1, min: -20, max: 60, fill: (c) => temperature(c, 24, 3) },
  { name: "Oil pressure", unit: "bar", precision: 2, min: 0, max: 10, fill: (c) => pressure(c, 2.5, 0.8) },
  { name: "Hydraulic pressure", unit: "bar", precision: 1, min: 0, max: 250, fill: (c) => pressure(c, 120, 25) },
  { name: "Inlet pressure", unit: "bar", precision: 2, min: 0, max: 6, fill: (c) => pressure(c, 1.2, 0.3) },
  { name: "Outlet pressure", unit: "bar", precision: 2, min: 0, max: 6, fill: (c) => pressure(c, 0.9, 0.2) },
  { name: "Strain gauge 1", unit: "µm/m", precision: 0, min: -2000, max: 2000, fill: (c) => strain(c, 450) },
  { name: "Strain gauge 2", unit: "µm/m", precision: 0, min: -2000, max: 2000, fill: (c) => strain(c, 380) },
  { name: "Strain gauge 3", unit: "µm/m", precision: 0, min: -2000, max: 2000, fill: (c) => strain(c, 300) },
  { name: "Strain gauge 4", unit: "µm/m", precision: 0, min: -2000, max: 2000, fill: (c) => strain(c, 520) },
  { name: "Bearing temperature 1", unit: "°C", precision: 1, min: -20, max: 150, fill: (c) => temperature(c, 64, 5) },
  { name: "Bearing temperature 2", unit: "°C", precision: 1, min: -20, max: 150, fill: (c) => temperature(c, 61, 5) },
  { name: "Shaft speed", unit: "rpm", precision: 0, min: 0, max: 6000, fill: (c) => speed(c, 4500) },
  { name: "Vibration", unit: "m/s²", precision: 3, min: -50, max: 50, fill: (c) => vibration(c, 4) },
];

// Channels past the named sixteen repeat the kinds under generic names.
const extra = (i: number): Channel => {
  const kind = i % 4;
  const name = `AI ${i + 1}`;
  if (kind === 0) return { name, unit: "°C", precision: 1, min: -20, max: 150, fill: (c) => temperature(c, 40 + (i % 30), 4) };
  if (kind === 1) return { name, unit: "bar", precision: 2, min: 0, max: 10, fill: (c) => pressure(c, 2, 0.5) };
  if (kind === 2) return { name, unit: "µm/m", precision: 0, min: -2000, max: 2000, fill: (c) => strain(c, 200 + (i % 7) * 40) };
  return { name, unit: "m/s²", precision: 3, min: -50, max: 50, fill: (c) => vibration(c, 1 + (i % 3)) };
};

const DIGITAL_IN: Array<[string, number, number]> = [
  ["Door closed", 0.9, 120],
  ["E-stop released", 0.97, 600],
  ["Pump running", 0.7, 90],
  ["Valve 1 open", 0.5, 45],
  ["Valve 2 open", 0.4, 60],
  ["Fan running", 0.8, 300],
  ["Oil level OK", 0.95, 900],
  ["Limit switch", 0.1, 20],
];
const DIGITAL_OUT: Array<[string, number]> = [
  ["Lamp green", 1],
  ["Lamp red", 0],
  ["Horn", 0],
  ["Pump enable", 1],
];

const EPOCH_2025 = Date.UTC(2025, 0, 1) / 1000;

export function buildRig(o: ResolvedSim): Rig {
  const id = (name: string) => stableUuid(o.seed, name);
  const fills = new Map<string, Fill>();
  const outputs = new Map<string, { value: number; format: DataFormat }>();
  const model: Model = { devices: [], sources: [], variables: [] };
  // Signals that depend on the period, so a rate change can rebuild them with the same stream.
  const makers = new Map<string, (periodUs: number) => Fill>();
  let stream = 0;

  function device(key: string, d: Omit<Device, "ID" | "SourceId" | "SampleRateHz" | "Modules">, rateHz: number): Device {
    const dev: Device = { ...d, ID: id(`device:${key}`), SourceId: id(`source:${key}`), SampleRateHz: rateHz, Modules: [] };
    model.devices.push(dev);
    model.sources.push({ Id: dev.SourceId, Name: dev.Name, PeriodUs: Math.round(1e6 / rateHz), DeviceId: dev.ID, Variables: [] });
    return dev;
  }
  function module(dev: Device, key: string, name: string, type: string): Module {
    const m: Module = { ID: id(`module:${key}`), Name: name, Type: type, Variables: [] };
    dev.Modules.push(m);
    return m;
  }
  function variable(dev: Device, mod: Module, ch: Channel, fill?: Fill): Variable {
    const src = model.sources.find((s) => s.Id === dev.SourceId)!;
    const v: Variable = {
      Id: id(`variable:${dev.Name}/${mod.Name}/${ch.name}`),
      Name: ch.name,
      Unit: ch.unit,
      DataFormat: ch.format ?? "FLOAT",
      Direction: ch.dir ?? "I",
      Index: model.variables.length,
      Precision: ch.precision,
      RangeMin: ch.min,
      RangeMax: ch.max,
      DeviceId: dev.ID,
      ModuleId: mod.ID,
      SourceId: src.Id,
      SampleRateHz: dev.SampleRateHz,
    };
    model.variables.push(v);
    mod.Variables.push(v.Id);
    src.Variables.push(v.Id);
    const make = ch.fill;
    if (!fill && !make) throw new Error(`No signal for ${ch.name}`);
    if (fill) {
      fills.set(v.Id, fill);
    } else {
      const ctx = { seed: o.seed, stream: ++stream * 7919 };
      // The bench controller's analog inputs go through its 24-bit converters.
      const adc = mod.Type === "AI";
      makers.set(v.Id, (periodUs) => (adc ? converter({ ...ctx, periodUs }, ch.min, ch.max, make!({ ...ctx, periodUs })) : make!({ ...ctx, periodUs })));
      fills.set(v.Id, makers.get(v.Id)!(src.PeriodUs));
    }
    return v;
  }

  const bench = device("bench", {
    Name: "Test bench controller", Type: "Controller", Serial: "TB-2041-0173", Firmware: "4.12.2",
    IPAddress: "192.168.10.20", Location: { Lat: 44.6471, Lon: 10.9252, Site: "Modena test cell" },
  }, o.benchRateHz);
  const ai = module(bench, "bench-ai", "Analog inputs", "AI");
  const channels: string[] = [];
  for (let i = 0; i < o.benchChannels; i++) channels.push(variable(bench, ai, BENCH[i] ?? extra(i)).Id);
  const dio = module(bench, "bench-dio", "Digital I/O", "DIO");
  for (const [name, p, hold] of DIGITAL_IN) {
    variable(bench, dio, { name, unit: "", format: "BOOL", precision: 0, min: 0, max: 1, fill: (c) => digital(c, p, hold) });
  }
  for (const [name, initial] of DIGITAL_OUT) {
    const state = { value: initial, format: "BOOL" as DataFormat };
    const v = variable(bench, dio, { name, unit: "", format: "BOOL", dir: "O", precision: 0, min: 0, max: 1 }, held(() => state.value));
    outputs.set(v.Id, state);
  }

  const meter = device("meter", {
    Name: "Power meter", Type: "PowerMeter", Serial: "PM-5560-88213", Firmware: "2.3.0",
    IPAddress: "192.168.10.31", Location: { Lat: 44.5287, Lon: 10.8636, Site: "Maranello substation" },
  }, 1);
  const pm = module(meter, "meter-main", "Supply", "Meter");
  const ctx = (s: number): SignalContext => ({ seed: o.seed, stream: s, periodUs: 1e6 });
  const grid = load(ctx(++stream * 7919), 18, 9, 3600);
  const kw = (g: number) => grid.kw(grid.seconds(g) - EPOCH_2025) + 0.4 * grid.noise(g);
  const volts = wander(ctx(++stream * 7919), 226, 234, 600, 0.3);
  const fill = (f: (g: number) => number): Fill => (out, start, n) => {
    for (let i = 0; i < n; i++) out[i] = f(start + i);
  };
  variable(meter, pm, { name: "Voltage L1", unit: "V", precision: 1, min: 0, max: 300 }, volts);
  variable(meter, pm, { name: "Current L1", unit: "A", precision: 2, min: 0, max: 200 },
    fill((g) => (kw(g) * 1000) / (230 * 0.92 * 3)));
  variable(meter, pm, { name: "Active power", unit: "kW", precision: 2, min: 0, max: 100 }, fill(kw));
  variable(meter, pm, { name: "Energy", unit: "kWh", format: "DOUBLE", precision: 2, min: 0, max: 1e7 },
    fill((g) => grid.kwh(grid.seconds(g) - EPOCH_2025)));

  const station = device("weather", {
    Name: "Weather station", Type: "WeatherStation", Serial: "WS-300-1142", Firmware: "1.8.5",
    IPAddress: "10.44.0.7", Location: { Lat: 44.1936, Lon: 10.7016, Site: "Monte Cimone" },
  }, 1);
  const ws = module(station, "weather-sensors", "Sensors", "Weather");
  const weather: Channel[] = [
    { name: "Air temperature", unit: "°C", precision: 1, min: -40, max: 60, fill: (c) => temperature(c, 14, 9) },
    { name: "Relative humidity", unit: "%", precision: 0, min: 0, max: 100, fill: (c) => wander(c, 35, 90, 1800, 0.5) },
    { name: "Wind speed", unit: "m/s", precision: 1, min: 0, max: 60, fill: (c) => wander(c, 0, 9, 120, 1.2) },
    { name: "Wind direction", unit: "°", precision: 0, min: 0, max: 360, fill: (c) => wander(c, 150, 290, 900, 6) },
    { name: "Air pressure", unit: "hPa", precision: 1, min: 900, max: 1100, fill: (c) => wander(c, 1002, 1024, 7200, 0.1) },
    { name: "Solar radiation", unit: "W/m²", precision: 0, min: 0, max: 1400, fill: (c) => solar(c, 850) },
  ];
  const drop = connectionDrops(o.seed);
  for (const ch of weather) {
    const inner = ch.fill!({ seed: o.seed, stream: ++stream * 7919, periodUs: 1e6 });
    // Samples during an outage never reach the logger: they are gaps, not zeros.
    variable(station, ws, ch, (out, start, n) => {
      inner(out, start, n);
      for (let i = 0; i < n; i++) if (drop(start + i)) out[i] = Number.NaN;
    });
  }

  return {
    model,
    fills,
    outputs,
    connectedAt: (deviceId, tMs) => deviceId !== station.ID || !drop(Math.floor(tMs / 1000)),
    bench: { deviceId: bench.ID, channels },
    refill: (deviceId, periodUs) => {
      const dev = model.devices.find((d) => d.ID === deviceId)!;
      const src = model.sources.find((s) => s.Id === dev.SourceId)!;
      src.PeriodUs = periodUs;
      dev.SampleRateHz = 1e6 / periodUs;
      for (const id of src.Variables) {
        const v = model.variables.find((x) => x.Id === id)!;
        v.SampleRateHz = dev.SampleRateHz;
        const make = makers.get(id);
        if (make) fills.set(id, make(periodUs));
      }
    },
  };
}

// In about one ten-minute window of six, the radio link drops for 20–120 s.
function connectionDrops(seed: number): (second: number) => boolean {
  return (s) => {
    const w = Math.floor(s / 600);
    if (uniform(seed, 0x0d20, w) >= 0.17) return false;
    const start = Math.floor(uniform(seed, 0x0d21, w) * 480);
    const length = 20 + Math.floor(uniform(seed, 0x0d22, w) * 100);
    const at = s - w * 600;
    return at >= start && at < start + length;
  };
}
