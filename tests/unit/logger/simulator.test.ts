import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LiveValues } from "../../../logger/model/live.ts";
import { resolveSim } from "../../../logger/sim/options.ts";
import { buildRig } from "../../../logger/sim/rig.ts";
import { Simulator } from "../../../logger/sim/simulator.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { tempDir } from "./helpers.ts";

const START = Math.floor(Date.UTC(2026, 10, 3, 9) / 10); // a 100 Hz sample index

function samples(seed: number, name: string, start: number, n: number, chunks = 1): Float32Array {
  const rig = buildRig(resolveSim({ seed }));
  const v = rig.model.variables.find((x) => x.Name === name)!;
  const out = new Float32Array(n);
  const step = Math.ceil(n / chunks);
  for (let i = 0; i < n; i += step) {
    const part = new Float32Array(Math.min(step, n - i));
    rig.fills.get(v.Id)!(part, start + i, part.length);
    out.set(part, i);
  }
  return out;
}

describe("simulator", () => {
  it("is deterministic: same seed, same IDs and samples, however they are batched", () => {
    const a = buildRig(resolveSim({ seed: 3 }));
    const b = buildRig(resolveSim({ seed: 3 }));
    const c = buildRig(resolveSim({ seed: 4 }));
    expect(a.model.variables.map((v) => v.Id)).toEqual(b.model.variables.map((v) => v.Id));
    expect(a.model.variables[0]!.Id).not.toBe(c.model.variables[0]!.Id);
    expect(a.model.variables[0]!.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const name of ["Oil temperature", "Hydraulic pressure", "Strain gauge 1", "Vibration", "Valve 1 open"]) {
      const one = samples(3, name, START, 60_000);
      expect(samples(3, name, START, 60_000, 7)).toEqual(one);
      expect(samples(4, name, START, 60_000)).not.toEqual(one);
    }
  });

  it("acquires the bench's analog inputs through a 24-bit converter on each channel's range", () => {
    const rig = buildRig(resolveSim({ seed: 1 }));
    for (const name of ["Oil temperature", "Hydraulic pressure", "Strain gauge 1", "Shaft speed", "Vibration"]) {
      const v = rig.model.variables.find((x) => x.Name === name)!;
      const lsb = (v.RangeMax! - v.RangeMin!) / 2 ** 24;
      const x = samples(1, name, START, 20_000);
      const codes = new Set<number>();
      for (const value of x) {
        // Every sample is one of the converter's 2^24 codes, scaled to the unit as float32.
        const code = Math.round((value - v.RangeMin!) / lsb);
        expect(code).toBeGreaterThanOrEqual(0);
        expect(code).toBeLessThan(2 ** 24);
        expect(Math.fround(v.RangeMin! + code * lsb)).toBe(value);
        codes.add(code);
      }
      // With the converter's noise: many codes, also where the signal holds still.
      expect(codes.size, name).toBeGreaterThan(1000);
    }
    // Digital inputs and the other devices are not the bench's converters.
    expect(samples(1, "Valve 1 open", START, 1000).every((b) => b === 0 || b === 1)).toBe(true);
  });

  it("gives the vibration channel spectral lines above the noise floor", () => {
    const n = 4000;
    const x = samples(1, "Vibration", START, n);
    const power = (f: number) => {
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        re += x[i]! * Math.cos((2 * Math.PI * f * i) / 100);
        im -= x[i]! * Math.sin((2 * Math.PI * f * i) / 100);
      }
      return (re * re + im * im) / n;
    };
    const line = power(8.3);
    expect(line).toBeGreaterThan(50 * power(14.1));
    expect(power(21.7)).toBeGreaterThan(10 * power(27.9));
  });

  it("drops the weather station now and then, the same way every time", () => {
    const rig = buildRig(resolveSim({ seed: 1 }));
    const station = rig.model.devices.find((d) => d.Type === "WeatherStation")!;
    const day = Date.UTC(2026, 10, 3);
    const down: number[] = [];
    for (let s = 0; s < 86400; s += 5) if (!rig.connectedAt(station.ID, day + s * 1000)) down.push(s);
    expect(down.length).toBeGreaterThan(100);
    expect(down.length).toBeLessThan(86400 / 5 / 10);
    const again = buildRig(resolveSim({ seed: 1 }));
    expect(down.every((s) => !again.connectedAt(station.ID, day + s * 1000))).toBe(true);
    // Samples inside an outage are gaps.
    const temp = station.Modules[0]!.Variables[0]!;
    const out = new Float32Array(1);
    rig.fills.get(temp)!(out, (day + down[0]! * 1000) / 1000, 1);
    expect(out[0]).toBeNaN();
  });

  it("backfills history into the store, resuming where it stopped", async () => {
    const dir = tempDir();
    try {
      let now = Date.UTC(2026, 10, 3, 12);
      const store = new SeriesStore(dir);
      const sim = new Simulator(resolveSim({ seed: 2, benchChannels: 4, now: () => now }), store, new LiveValues());
      const lines: string[] = [];
      const total = await sim.backfill(600, (l) => lines.push(l));
      expect(total).toBeGreaterThan(600 * 100 * (4 + 12));
      expect(lines.at(-1)).toMatch(/^backfill: done/);
      const oil = sim.rig.model.variables.find((v) => v.Name === "Oil temperature")!;
      const vs = store.seriesOf(store.variable(oil.Id)!);
      expect(vs.end).toBe(now / 10 + 1);
      expect(vs.first).toBe((now - 600_000) / 10);
      const want = new Float32Array(100);
      sim.rig.fills.get(oil.Id)!(want, vs.end - 100, 100);
      expect(store.reader().block(vs, vs.blockIdx)!.subarray(vs.rawLen - 100, vs.rawLen)).toEqual(want);
      now += 60_000;
      const more = await sim.backfill(600, () => {});
      expect(more).toBeLessThan(total / 5);
      expect(vs.end).toBe(now / 10 + 1);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
