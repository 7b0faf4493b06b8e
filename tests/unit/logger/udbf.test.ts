import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TYPE } from "../../../logger/udbf/format.ts";
import { UdbfReader, parseHeader } from "../../../logger/udbf/reader.ts";
import type { UdbfBatch } from "../../../logger/udbf/reader.ts";
import { UdbfRows, nanos, udbfHeader } from "../../../logger/udbf/writer.ts";
import type { UdbfVariable } from "../../../logger/udbf/writer.ts";
import { UdbfSlice } from "../../../logger/udbf/slice.ts";
import { ADMIN_PASSWORD, HISTORY_HOOK_MS, login, rpc, start, waitForHistory } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// UDBF (the family's binary data file) end to end: the writer and the reader against each other
// and against hand-made bytes, the export beside the JSON answer of the same request, imports of
// files in parts (little- and big-endian), and refusals that name the byte.

type Var = { Id: string; Name: string; Unit: string; DataFormat: string; SourceId: string; SampleRateHz: number };

/** A whole file from the project's writer: rows of [epoch µs, ...values]. */
function file(vars: UdbfVariable[], rateHz: number, rows: number[][]): Uint8Array {
  const header = udbfHeader(vars, rateHz, rows[0]?.[0] !== undefined ? rows[0][0] / 1000 : undefined);
  const enc = new UdbfRows(header, vars.map((v) => v.type), rows.length);
  for (const row of rows) {
    enc.time(row[0]!);
    for (let i = 1; i < row.length; i++) enc.value(i - 1, row[i]!);
  }
  const body = enc.take();
  const out = new Uint8Array(header.bytes.length + body.length);
  out.set(header.bytes);
  out.set(body, header.bytes.length);
  return out;
}

/** Reads a file with the project's reader, in parts of `part` bytes. */
function read(bytes: Uint8Array, part = bytes.length) {
  const rows: { us: number; offset: number; values: number[] }[] = [];
  const r = new UdbfReader((us, offset, values) => rows.push({ us, offset, values: [...values] }));
  for (let at = 0; at < bytes.length; at += part) r.push(bytes.subarray(at, at + part));
  r.end();
  return { info: r.info!, rows, reader: r };
}

/** The same, in batch mode (the import's): rows rebuilt from the column batches. */
function readBatches(bytes: Uint8Array, part = bytes.length) {
  const rows: { us: number; offset: number; values: number[] }[] = [];
  const r = new UdbfReader(
    () => {
      throw new Error("batch mode hands no single rows");
    },
    null,
    (b: UdbfBatch) => {
      for (let i = 0; i < b.rows; i++) rows.push({ us: b.us[i]!, offset: r.info!.dataOffset + (b.first + i) * r.info!.rowBytes, values: b.columns.map((c) => c[i]!) });
    },
  );
  for (let at = 0; at < bytes.length; at += part) r.push(bytes.subarray(at, at + part));
  r.end();
  return { info: r.info!, rows, reader: r };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bits32 = (v: number) => ((f32[0] = v), u32[0]!);

describe("UDBF writer and reader", () => {
  const vars: UdbfVariable[] = [
    { name: "Valve", unit: "", direction: 1, type: TYPE.boolean, precision: 0 },
    { name: "Current", unit: "mA", direction: 0, type: TYPE.f32, precision: 3 },
    { name: "Counter", unit: "", direction: 0, type: TYPE.i32, precision: 0 },
    { name: "Temp °C", unit: " V", direction: 2, type: TYPE.f64, precision: 2 },
  ];

  it("writes the family's header: version 107, time u64 ns since 2000-01-01, data at a multiple of 16", () => {
    const bytes = file(vars, 100, [[Date.UTC(2015, 5, 1) * 1000, 1, 1.5, 7, 2.25]]);
    const h = parseHeader(bytes)!;
    expect(bytes[0]).toBe(0);
    expect(h).toMatchObject({ littleEndian: true, version: 107, timeType: TYPE.u64, timeFactor: 1e-9, sampleRateHz: 100, startMs: Date.UTC(2000, 0, 1) });
    expect(h.vendor).toBe("UniversalDataBinFile - Gantner Instruments");
    expect(h.dataOffset % 16).toBe(0);
    expect(bytes.subarray(h.dataOffset - 8, h.dataOffset).every((b) => b === 0x2a)).toBe(true);
    expect(h.variables).toEqual([
      { Name: "Valve", Unit: "", Direction: 1, DataType: 1, FieldLength: 1, Precision: 0 },
      { Name: "Current", Unit: "mA", Direction: 0, DataType: 8, FieldLength: 10, Precision: 3 },
      { Name: "Counter", Unit: "", Direction: 0, DataType: 6, FieldLength: 10, Precision: 0 },
      // Windows-1252 both ways; the unit's leading space, as a family file has it, is trimmed.
      { Name: "Temp °C", Unit: "V", Direction: 2, DataType: 12, FieldLength: 10, Precision: 2 },
    ]);
    expect(h.rowBytes).toBe(8 + 1 + 4 + 4 + 8);
    // The time stamp: nanoseconds since 2000-01-01, exactly (the value passes 2^53).
    const ns = new DataView(bytes.buffer).getBigUint64(h.dataOffset, true);
    expect(ns).toBe(BigInt(Date.UTC(2015, 5, 1) - Date.UTC(2000, 0, 1)) * 1_000_000n);
    expect(nanos(2 ** 52 + 123)).toEqual([Number((BigInt(2 ** 52 + 123) * 1000n) >> 32n), Number((BigInt(2 ** 52 + 123) * 1000n) & 0xffffffffn)]);
  });

  it("reads back what it wrote, from parts cut anywhere, header included", () => {
    const t0 = Date.UTC(2024, 0, 2, 3, 4, 5) * 1000;
    const rows = Array.from({ length: 50 }, (_, i) => [t0 + i * 10_000, i % 2, Math.fround(Math.sin(i) * 1e3), 16_777_217 + i, i / 3]);
    const bytes = file(vars, 100, rows);
    for (const part of [1, 3, 7, 16, 25, 1000, bytes.length]) {
      const { rows: got, info } = read(bytes, part);
      expect(got).toHaveLength(50);
      expect(got[0]!.offset).toBe(info.dataOffset);
      for (let i = 0; i < 50; i++) {
        expect(got[i]!.us).toBeCloseTo(rows[i]![0]!, 0);
        expect(got[i]!.values[0]).toBe(i % 2);
        expect(bits32(got[i]!.values[1]!)).toBe(bits32(rows[i]![2]!));
        // Integers beyond 2^24 and f64 values are what float32 makes of them.
        expect(got[i]!.values[2]).toBe(Math.fround(16_777_217 + i));
        expect(got[i]!.values[3]).toBe(Math.fround(i / 3));
      }
    }
    const { reader } = read(bytes);
    expect(reader.inexact).toEqual([false, false, true, true]);
  });

  it("encodes a slice column by column byte for byte as the row encoder does, all-gap rows left out, either row layout", () => {
    const allF32: UdbfVariable[] = [0, 1, 2].map((i) => ({ name: `F${i}`, unit: "", direction: 0, type: TYPE.f32, precision: 3 }));
    // (vars: a boolean and an f64 make rows that are no whole words: the DataView path.)
    for (const layout of [allF32, vars]) {
      // One hour per row: the time step passes 2^32 ns, its carry into the high word must be right.
      for (const stepUs of [1000, 3_600_000_000]) {
        const firstUs = Date.UTC(2020, 1, 29, 23, 59, 59) * 1000 + 7000;
        const n = 300;
        const header = udbfHeader(layout, 1e6 / stepUs, firstUs / 1000);
        // Column i: gaps (NaN) on rows where (k + i) % 7 === 0 for the float columns, so rows 0 mod 7 of an all-f32 file are all gaps.
        const cols = layout.map((v, i) => Float32Array.from({ length: n }, (_, k) => (v.type === TYPE.f32 && (k % 7 === 0 || (k + i) % 11 === 0) ? Number.NaN : v.type === TYPE.boolean ? k % 2 : Math.fround(Math.sin(k + i) * 1e3))));
        const ref = new UdbfRows(header, layout.map((v) => v.type), n);
        for (let k = 0; k < n; k++) {
          if (cols.every((c) => Number.isNaN(c[k]!))) continue;
          ref.time(firstUs + k * stepUs);
          cols.forEach((c, i) => ref.value(i, c[k]!));
        }
        const want = Buffer.from(ref.take());
        const enc = new UdbfSlice(header, layout.map((v) => v.type));
        for (const slot of [0, 1] as const) {
          enc.begin(slot, n, true);
          enc.times(firstUs, stepUs);
          // In pieces, as blocks come: a part from the column, a gap put as one.
          cols.forEach((c, i) => {
            enc.put(i, 0, c, 0, 100);
            enc.put(i, 100, c.subarray(100), 0, 150);
            const gapRows = c.subarray(250).every((v) => Number.isNaN(v));
            if (gapRows) enc.gap(i, 250, 50);
            else enc.put(i, 250, c, 250, n);
          });
          expect(enc.finish().equals(want), `${layout.length} variables, step ${stepUs} µs, slot ${slot}`).toBe(true);
        }
        if (layout === allF32) expect(want.length).toBeLessThan(n * header.rowBytes);
      }
    }
  });

  it("reads a big-endian file (endianness byte 1)", () => {
    const be = bigEndian([{ name: "Speed", unit: "rpm", type: TYPE.u16 }, { name: "Load", unit: "%", type: TYPE.f32 }], 10, [
      [1000n, [1500, 0.5]],
      [100_000_000n, [1501, -0.25]],
    ]);
    const { info, rows } = read(be, 5);
    expect(info.littleEndian).toBe(false);
    expect(info.variables.map((v) => `${v.Name}|${v.Unit}|${v.DataType}`)).toEqual(["Speed|rpm|5", "Load|%|8"]);
    expect(rows.map((r) => r.values)).toEqual([[1500, 0.5], [1501, -0.25]]);
    expect(rows[1]!.us - rows[0]!.us).toBeCloseTo(99_999, 0);
  });

  // CPU only, about 2 s alone; beside the other suites on 2 cores it took 9–22 s (Vitest's 20 s
  // default failed it once, in the PostgreSQL suite of a fresh-clone run): a bound for its work, not a wait.
  it("decodes in batches (the import's path) exactly what it decodes row by row: times, values, rounding flags, the same error at the same byte", { timeout: 60_000 }, () => {
    const t0 = Date.UTC(2024, 0, 2, 3, 4, 5) * 1000;
    // 50,000 rows of 25 bytes (20 of f32only): more than a 1 MB batch; parts that cut rows anywhere.
    const rows = Array.from({ length: 50_000 }, (_, i) => [t0 + i * 1000 + (i % 7) * 0.137, i % 2, Math.fround(Math.sin(i) * 1e3), 16_777_217 + i, i / 3]);
    const mixed = file(vars, 1000, rows);
    const f32only = file(
      [0, 1, 2].map((i) => ({ name: `F${i}`, unit: "", direction: 0, type: TYPE.f32, precision: 3 })),
      1000,
      rows.map((r) => [r[0]!, r[2]!, -r[2]!, r[2]! / 7]),
    );
    const be = bigEndian([{ name: "Speed", unit: "rpm", type: TYPE.u16 }, { name: "Load", unit: "%", type: TYPE.f32 }], 10, Array.from({ length: 20_000 }, (_, i) => [BigInt(i) * 100_000_000n + 90n, [1500 + (i % 100), i / 4]] as [bigint, number[]]));
    // (toEqual on 50,000 rows is slow: compare as one buffer of times, offsets and value bits — a
    // string of them took most of this test's 9–22 s on a busy 2-core machine — the row by row one built once)
    const key = (x: ReturnType<typeof read>["rows"]) => {
      const width = 2 + (x[0]?.values.length ?? 0);
      const out = new Float64Array(x.length * width);
      x.forEach((r, i) => {
        out[i * width] = r.us;
        out[i * width + 1] = r.offset;
        r.values.forEach((v, k) => (out[i * width + 2 + k] = Number.isNaN(v) ? -1 : bits32(v)));
      });
      return Buffer.from(out.buffer);
    };
    for (const bytes of [mixed, f32only, be]) {
      const one = read(bytes);
      const oneKey = key(one.rows);
      for (const part of [4093, bytes.length]) {
        const many = readBatches(bytes, part);
        expect(many.rows.length).toBe(one.rows.length);
        expect(key(many.rows).equals(oneKey), `part ${part}`).toBe(true);
        expect(many.reader.inexact).toEqual(one.reader.inexact);
      }
    }
    // A time that does not increase, in the second batch; and a file cut inside a row.
    const h = parseHeader(mixed)!;
    const broken = mixed.slice();
    const at = h.dataOffset + 45_000 * h.rowBytes;
    new DataView(broken.buffer).setBigUint64(at, new DataView(broken.buffer).getBigUint64(at - h.rowBytes, true), true);
    const failure = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as Error).message;
      }
      return "no error";
    };
    expect(failure(() => readBatches(broken, 65_536))).toBe(failure(() => read(broken, 65_536)));
    expect(failure(() => readBatches(broken))).toMatch(new RegExp(`^Byte ${at}: row 45001's time .* is not after the previous row's`));
    const cut = mixed.subarray(0, mixed.length - 3);
    expect(failure(() => readBatches(cut, 1000))).toBe(failure(() => read(cut, 1000)));
    expect(failure(() => readBatches(cut))).toMatch(/the file ends 22 bytes into row 50000/);
  });

  it("names what is wrong and the byte offset of a malformed or truncated file", () => {
    const good = file(vars, 100, [[Date.UTC(2020, 0, 1) * 1000, 1, 2, 3, 4], [Date.UTC(2020, 0, 1) * 1000 + 10_000, 1, 2, 3, 4]]);
    const h = parseHeader(good)!;
    const fail = (bytes: Uint8Array) => {
      try {
        read(bytes, 9);
      } catch (err) {
        return (err as Error).message;
      }
      return "no error";
    };
    expect(fail(good.subarray(0, 0))).toBe("Byte 0: the file is empty");
    expect(fail(good.subarray(0, 40))).toMatch(/^Byte 40: the file ends inside its header/);
    expect(fail(good.subarray(0, good.length - 3))).toBe(`Byte ${h.dataOffset + h.rowBytes}: the file ends ${h.rowBytes - 3} bytes into row 2 (a row has ${h.rowBytes} bytes): it is cut short`);
    const bad = (at: number, value: number) => {
      const b = good.slice();
      b[at] = value;
      return b;
    };
    expect(fail(bad(0, 7))).toMatch(/^Byte 0: endianness 7/);
    expect(fail(bad(1, 99))).toMatch(/^Byte 1: version 99/);
    // The separator: a byte that is no "*".
    expect(fail(bad(h.dataOffset - 3, 0x41))).toBe(`Byte ${h.dataOffset - 3}: expected the separator "*" (8 to 23 of them up to a multiple of 16, here ${h.dataOffset - (h.dataOffset - 8 - ((16 - ((h.dataOffset - 8) % 16)) % 16 === 0 ? 0 : 0))}) after the variables, found byte 65`.replace(/here \d+/, `here ${sepLength(good)}`));
    // Time going backwards: the second row's offset.
    const back = good.slice();
    new DataView(back.buffer).setBigUint64(h.dataOffset + h.rowBytes, 5n, true);
    expect(fail(back)).toMatch(new RegExp(`^Byte ${h.dataOffset + h.rowBytes}: row 2's time .* is not after the previous row's`));
  });
});

/** Bytes of `*` before the data of a file. */
function sepLength(bytes: Uint8Array): number {
  const h = parseHeader(bytes)!;
  let n = 0;
  while (bytes[h.dataOffset - 1 - n] === 0x2a) n++;
  return n;
}

/** A big-endian UDBF file built by hand from UDBF.md (2 bytes per u16 high first, and so on). */
function bigEndian(vars: { name: string; unit: string; type: number }[], rate: number, rows: [bigint, number[]][]): Uint8Array {
  const out: number[] = [];
  const u16 = (v: number) => out.push((v >> 8) & 0xff, v & 0xff);
  const f64 = (v: number) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, false);
    out.push(...b);
  };
  const str = (t: string) => {
    u16(t.length + 1);
    for (const c of t) out.push(c.charCodeAt(0));
    out.push(0);
  };
  out.push(1);
  u16(107);
  str("UniversalDataBinFile - test");
  out.push(0);
  u16(0);
  f64(1);
  u16(14);
  f64(1e-9);
  f64(36526);
  f64(rate);
  u16(vars.length);
  for (const v of vars) {
    str(v.name);
    u16(0);
    u16(v.type);
    u16(8);
    u16(2);
    str(v.unit);
    u16(0);
  }
  const sep = 8 + ((16 - ((out.length + 8) % 16)) % 16);
  for (let i = 0; i < sep; i++) out.push(0x2a);
  for (const [ns, values] of rows) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, ns, false);
    out.push(...b);
    values.forEach((v, i) => {
      const t = vars[i]!.type;
      const size = t === TYPE.u16 ? 2 : 4;
      const x = new Uint8Array(size);
      const dv = new DataView(x.buffer);
      if (t === TYPE.u16) dv.setUint16(0, v, false);
      else dv.setFloat32(0, v, false);
      out.push(...x);
    });
  }
  return Uint8Array.from(out);
}

describe("UDBF through the data API", () => {
  let lg: TestLogger;
  let admin: string;
  let vars: Var[];
  const byName = (n: string) => vars.find((v) => v.Name === n)!;

  async function call(method: string, path: string, body?: unknown, token: string | null = admin) {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof Uint8Array) (payload = body as BodyInit), (headers["Content-Type"] = "application/octet-stream");
    else if (body !== undefined) (payload = JSON.stringify(body)), (headers["Content-Type"] = "application/json");
    const res = await fetch(`${lg.url}${path}`, { method, headers, body: payload });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null;
    return { status: res.status, headers: res.headers, bytes, body: json };
  }

  // The start and the wait for 3 s of history once took more than Vitest's 10 s for a hook, with
  // the other suites beside it on 2 cores.
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    vars = (await call("GET", "/online/structure/variables")).body.Data;
    await waitForHistory(lg.url, admin, 3);
  }, HISTORY_HOOK_MS);
  afterAll(() => lg.stop());

  it("exports raw samples as UDBF with the JSON answer's values and times, the digital ones as booleans", async () => {
    const oil = byName("Oil temperature");
    const digital = vars.find((v) => v.DataFormat === "BOOL" && v.SourceId === oil.SourceId && v.SampleRateHz === oil.SampleRateHz)!;
    // Inside the history the logger has (3 s): a boolean is written as one only where it has a sample on every row.
    const end = Date.now() - 1000;
    const request = { Start: end - 1500, End: end, Variables: [oil, digital].map((v) => ({ SID: v.SourceId, VID: v.Id })) };
    const json = await call("POST", "/history/data", request);
    expect(json.status).toBe(200);
    const ts = json.body.Data[0].TimeSeries;
    const udbf = await call("POST", "/history/data", { ...request, Format: "udbf" });
    expect(udbf.status, new TextDecoder().decode(udbf.bytes.subarray(0, 300))).toBe(200);
    expect(udbf.headers.get("content-type")).toBe("application/octet-stream");
    const { info, rows } = read(udbf.bytes, 333);
    expect(Number(udbf.headers.get("x-udbf-data-offset"))).toBe(info.dataOffset);
    expect(info.sampleRateHz).toBe(100);
    expect(info.variables.map((v) => [v.Name, v.Unit, v.DataType, v.Direction]), JSON.stringify(digital)).toEqual([
      [oil.Name, oil.Unit, TYPE.f32, 0],
      [digital.Name, digital.Unit, TYPE.boolean, 0],
    ]);
    expect(rows).toHaveLength(ts.Size);
    rows.forEach((row, k) => {
      expect(Math.round(row.us)).toBe(Math.round((ts.Start + k * ts.Delta) * 1000));
      expect(Number(row.values[0]!.toPrecision(7))).toBeCloseTo(ts.Values[0][k], 3);
      expect(Math.fround(ts.Values[0][k])).toBe(row.values[0]);
      expect(row.values[1]).toBe(ts.Values[1][k]);
    });
  });

  it("exports bucket means with Points as f64, each row at the JSON answer's Start + k × Delta", async () => {
    const oil = byName("Oil temperature");
    const end = Math.floor(Date.now() / 1000) * 1000 - 500;
    // A start off the bucket grid: the first bucket begins before it.
    const request = { Start: end - 2537, End: end, Variables: [{ SID: oil.SourceId, VID: oil.Id }], Points: 20 };
    const ts = (await call("POST", "/history/data", request)).body.Data[0].TimeSeries;
    // Start is the time of the first value (it was the requested start; the family's client built its index on it).
    expect(ts.Start).toBe(ts.AbsoluteStart);
    // The bucket of the first sample at or after the requested start: it begins before that start,
    // or on that sample when the bucket grid starts there (by the wall-clock second of the run).
    const periodMs = 1000 / oil.SampleRateHz;
    const firstSample = Math.ceil((end - 2537) / periodMs) * periodMs;
    expect(ts.Start).toBeLessThanOrEqual(firstSample);
    expect(ts.Start).toBeGreaterThan(firstSample - ts.Delta);
    const { info, rows } = read((await call("POST", "/history/data", { ...request, Format: "udbf" })).bytes);
    expect(info.variables[0]!.DataType).toBe(TYPE.f64);
    expect(info.sampleRateHz).toBeCloseTo(1000 / ts.Delta, 9);
    // Buckets without a sample (before the logger's first) are rows left out.
    const filled = (ts.Values[0] as (number | null)[]).map((v, k) => ({ v, t: ts.Start + k * ts.Delta })).filter((x) => x.v !== null);
    expect(filled.length).toBeGreaterThan(5);
    expect(rows.map((r) => Math.round(r.us / 1000))).toEqual(filled.map((x) => x.t));
    // (The reader hands float32, as the store keeps them: f64 means compared as such.)
    expect(rows.map((r) => r.values[0])).toEqual(filled.map((x) => Math.fround(x.v!)));
  });

  it("imports a UDBF file sent in parts: every variable a measurement variable, f32 bit for bit, rows on the nearest sample, gaps kept; a 2015 recording survives retention", async () => {
    const t0 = Date.UTC(2015, 3, 7, 8, 0, 0) * 1000;
    // 100 Hz, time stamps off the grid by a few hundred ns as the family's are, and a jump of 3.4 periods after row 5.
    const times = Array.from({ length: 12 }, (_, i) => t0 + i * 10_000 + (i > 5 ? 24_000 : 0) + ((i * 37) % 5) * 0.14);
    const f32s = times.map((_, i) => Math.fround((i - 6) * 1.37e-3 + (i % 3) * 1e30));
    const rows = times.map((t, i) => [t, i % 2, f32s[i]!, 16_777_217 + i, i + 0.5]);
    const vars: UdbfVariable[] = [
      { name: "Valve", unit: "", direction: 1, type: TYPE.boolean, precision: 0 },
      { name: "Current", unit: "mA", direction: 0, type: TYPE.f32, precision: 3 },
      { name: "Counter", unit: "", direction: 0, type: TYPE.i32, precision: 0 },
      { name: "Half", unit: "V", direction: 0, type: TYPE.f64, precision: 1 },
    ];
    const bytes = file(vars, 100, rows);
    // The family's client sends these as strings.
    const opened = await call("POST", "/history/data/import", { Type: "udbf", Target: "history", SourceID: "bench-2015", SourceName: "Bench 2015", MeasID: "", SessionTimeoutSec: "300", AddTimeSeries: "true", SampleRate: "-1", AutoCreateMetaData: "true", RetentionTimeSec: 3600 });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const session = opened.body.Data.SessionID;
    for (const [a, b] of [[0, 37], [37, 200], [200, bytes.length]]) {
      const sent = await call("POST", `/history/data/import/${session}`, bytes.subarray(a, b));
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    const closed = await call("DELETE", `/history/data/import/${session}`);
    expect(closed.status, JSON.stringify(closed.body) + lg.lines.slice(-5).join("\n")).toBe(200);
    const d = closed.body.Data;
    expect(d, JSON.stringify(d)).toMatchObject({ SourceId: "bench-2015", Rows: 12, SampleRateHz: 100, Start: t0 / 1000, End: t0 / 1000 + 140 });
    expect(d.Variables.map((v: { Name: string; DataType: string; Rounded: boolean }) => `${v.Name}|${v.DataType}|${v.Rounded}`)).toEqual(["Valve|boolean|false", "Current|f32|false", "Counter|i32|true", "Half|f64|false"]);

    const back = async () => {
      const res = await call("POST", "/history/data", { Start: 0, End: 0, Variables: d.Variables.map((v: { Id: string }) => ({ SID: "bench-2015", VID: v.Id, Selector: `mid:${d.MeasurementId}` })) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.Data[0].TimeSeries;
    };
    const ts = await back();
    expect(ts.Start).toBe(t0 / 1000);
    expect(ts.Delta).toBe(10);
    // Slots 0–5, then the jump of 3.4 periods → slot 8 (two samples of gap, nothing smeared), then on.
    const slot = (i: number) => (i <= 5 ? i : i + 2);
    expect(ts.Size).toBe(14);
    for (let i = 0; i < 12; i++) {
      const k = slot(i);
      expect(ts.Values[0][k]).toBe(i % 2);
      expect(bits32(Math.fround(ts.Values[1][k]))).toBe(bits32(f32s[i]!));
      expect(ts.Values[2][k]).toBe(Math.fround(16_777_217 + i));
      expect(ts.Values[3][k]).toBe(i + 0.5);
    }
    for (const k of [6, 7]) expect(ts.Values.map((col: unknown[]) => col[k])).toEqual([null, null, null, null]);

    // Retention (counted from now) leaves an imported recording alone.
    expect((await rpc(lg.url, "DeviceAPI.SetRetention", { SourceId: "bench-2015", RetentionSec: 60 }, admin)).status).toBe(200);
    const again = await back();
    expect(again.Values).toEqual(ts.Values);
    const listed = (await call("POST", "/history/structure/sources/bench-2015/measurements", { AddMeasMetaData: true })).body.Data;
    expect(listed[0].MetaData).toEqual(expect.arrayContaining([{ Key: "Origin", Value: "UDBF import" }, { Key: "Rounded to float32", Value: "Counter" }]));
  });

  it("imports a file of many batches and blocks bit for bit: exported raw as UDBF it gives back the file's rows byte for byte, its gap too", async () => {
    // 25 f32 variables at 1 kHz as a bench controller records them, 20,000 rows (2 MB: two
    // batches of the reader, five blocks of the store), a gap of 3 samples after row 9,000.
    const vars25: UdbfVariable[] = Array.from({ length: 25 }, (_, c) => ({ name: `Channel ${c + 1}`, unit: "mA", direction: 0, type: TYPE.f32, precision: 3 }));
    const t0 = Date.UTC(2019, 6, 1, 12, 0, 0) * 1000;
    const rows = Array.from({ length: 20_000 }, (_, r) => [t0 + (r + (r > 9000 ? 3 : 0)) * 1000, ...vars25.map((_, c) => (c === 7 && r % 5 === 0 ? Number.NaN : Math.fround(10 * Math.sin(r / (100 + 7 * c)))))]);
    const bytes = file(vars25, 1000, rows);
    const h = parseHeader(bytes)!;
    const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Round trip" })).body.Data.SessionId;
    for (let at = 0; at < bytes.length; at += 777_777) expect((await call("POST", `/history/data/import/${id}`, bytes.subarray(at, at + 777_777))).status).toBe(200);
    const closed = await call("DELETE", `/history/data/import/${id}`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const d = closed.body.Data;
    expect(d).toMatchObject({ Rows: 20_000, SampleRateHz: 1000, Start: t0 / 1000, End: t0 / 1000 + 20_003 });
    const out = await call("POST", "/history/data", { Start: d.Start, End: d.End, Variables: d.Variables.map((v: { Id: string }) => ({ SID: d.SourceId, VID: v.Id })), Format: "udbf" });
    expect(out.status).toBe(200);
    const back = parseHeader(out.bytes)!;
    expect(back.rowBytes).toBe(h.rowBytes);
    // The three missing samples are rows with no value anywhere: left out, as the file has them.
    expect(out.bytes.length - back.dataOffset).toBe(bytes.length - h.dataOffset);
    expect(Buffer.from(out.bytes.subarray(back.dataOffset)).equals(Buffer.from(bytes.subarray(h.dataOffset)))).toBe(true);
  });

  it("imports a big-endian file", async () => {
    const be = bigEndian([{ name: "Speed", unit: "rpm", type: TYPE.u16 }, { name: "Load", unit: "%", type: TYPE.f32 }], 10, [
      [BigInt(Date.UTC(2021, 0, 1) - Date.UTC(2000, 0, 1)) * 1_000_000n, [1500, 0.5]],
      [BigInt(Date.UTC(2021, 0, 1) - Date.UTC(2000, 0, 1) + 100) * 1_000_000n + 90n, [1501, -0.25]],
    ]);
    const opened = await call("POST", "/history/data/import", { Type: "UDBF", SourceName: "Big-endian" });
    const id = opened.body.Data.SessionId;
    const sent = await call("POST", `/history/data/import/${id}`, be);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const closed = await call("DELETE", `/history/data/import/${id}`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const d = closed.body.Data;
    const ts = (await call("POST", "/history/data", { Start: 0, End: 0, Variables: d.Variables.map((v: { Id: string }) => ({ SID: d.SourceId, VID: v.Id, Selector: `mid:${d.MeasurementId}` })) })).body.Data[0].TimeSeries;
    expect(ts.Values).toEqual([[1500, 1501], [0.5, -0.25]]);
    expect(ts.Start).toBe(Date.UTC(2021, 0, 1));
  });

  it("refuses a truncated or malformed file with what and where, and stores nothing", async () => {
    const before = (await call("GET", "/history/structure/sources")).body.Data.length;
    const good = file([{ name: "A", unit: "", direction: 0, type: TYPE.f32, precision: 1 }], 10, [[Date.UTC(2022, 0, 1) * 1000, 1], [Date.UTC(2022, 0, 1) * 1000 + 100_000, 2]]);
    const h = parseHeader(good)!;
    const attempt = async (bytes: Uint8Array) => {
      const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Broken" })).body.Data.SessionId;
      const sent = await call("POST", `/history/data/import/${id}`, bytes);
      if (sent.status !== 200) return sent;
      return call("DELETE", `/history/data/import/${id}`);
    };
    const cut = await attempt(good.subarray(0, good.length - 2));
    expect(cut.status).toBe(400);
    expect(cut.body.ReturnState.Description).toBe(`Byte ${h.dataOffset + h.rowBytes}: the file ends 10 bytes into row 2 (a row has 12 bytes): it is cut short. Nothing was stored`);
    const wrong = good.slice();
    wrong[0] = 9;
    const bad = await attempt(wrong);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toMatch(/^The import failed|^Byte 0: endianness 9/);
    expect(bad.body.ReturnState.Description).toContain("Nothing was stored");
    const rate = good.slice();
    new DataView(rate.buffer).setFloat64(h.rateOffset, 3, true);
    const third = await attempt(rate);
    expect(third.body.ReturnState.Description).toMatch(new RegExp(`^Byte ${h.rateOffset}: sample rate 3 Hz has no whole number of microseconds`));
    // A row whose time goes back fails the part it came in (rows are decoded in batches, the
    // rest of each part at its end), naming its byte.
    const back = good.slice();
    new DataView(back.buffer).setBigUint64(h.dataOffset + h.rowBytes, 0n, true);
    const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Backwards" })).body.Data.SessionId;
    const sent = await call("POST", `/history/data/import/${id}`, back);
    expect(sent.status).toBe(400);
    expect(sent.body.ReturnState.Description).toMatch(new RegExp(`^Byte ${h.dataOffset + h.rowBytes}: row 2's time .* is not after the previous row's`));
    expect((await call("DELETE", `/history/data/import/${id}`)).status).toBe(400);
    // A damaged time factor (a positive number, 1e-9 made ~1e34 by one byte) puts the rows at
    // times no date can hold: refused by row and byte like any time out of range, not an
    // internal error (the refusal's own date formatting threw a RangeError).
    const far = good.slice();
    const factorAt = Buffer.from(far).indexOf(Buffer.from(new Float64Array([1e-9]).buffer));
    expect(factorAt).toBeGreaterThan(0);
    far[factorAt + 7] = 0x47;
    const farOut = await attempt(far);
    expect(farOut.status).toBe(400);
    expect(farOut.body.ReturnState.Description).toMatch(new RegExp(`^Byte ${h.dataOffset}: row 1's time .+ lies outside 1970–2099\\. Nothing was stored`));
    expect((await call("GET", "/history/structure/sources")).body.Data.length).toBe(before);
  });
});

describe("staged and file imports: preview first, then commit (the Import screen, the file browser)", () => {
  let lg: TestLogger;
  let admin: string;

  async function call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { Authorization: `Bearer ${admin}` };
    let payload: BodyInit | undefined;
    if (body instanceof Uint8Array) (payload = body as BodyInit), (headers["Content-Type"] = "application/octet-stream");
    else if (body !== undefined) (payload = JSON.stringify(body)), (headers["Content-Type"] = "application/json");
    const res = await fetch(`${lg.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("stages a UDBF file, previews header, rows and a chart, then commits it as a named measurement", async () => {
    const t0 = Date.UTC(2016, 1, 2, 3, 4, 5) * 1000;
    const vars: UdbfVariable[] = [
      { name: "Flow", unit: "l/min", direction: 0, type: TYPE.f32, precision: 2 },
      { name: "Count", unit: "", direction: 0, type: TYPE.u32, precision: 0 },
    ];
    const rows = Array.from({ length: 2000 }, (_, i) => [t0 + i * 40_000, i / 4, i]);
    const bytes = file(vars, 25, rows);
    const opened = await call("POST", "/history/data/import", { Staged: true, SourceName: "Staged bench" });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const id = opened.body.Data.SessionId;
    for (const [a, b] of [[0, 100], [100, bytes.length]]) expect((await call("POST", `/history/data/import/${id}`, bytes.subarray(a, b))).status).toBe(200);
    const preview = await call("POST", `/history/data/import/${id}/preview`, {});
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const p = preview.body.Data;
    expect(p).toMatchObject({ Type: "udbf", Size: bytes.length, Rows: 2000, SampleRateHz: 25, First: t0 / 1000, Last: t0 / 1000 + 1999 * 40, Problem: null });
    expect(p.Variables).toEqual([
      { Name: "Flow", Unit: "l/min", DataType: "f32", DataFormat: "FLOAT", Direction: "I", Precision: 2, Lossy: false },
      { Name: "Count", Unit: "", DataType: "u32", DataFormat: "USINT32", Direction: "I", Precision: 0, Lossy: true },
    ]);
    expect(p.FirstRows.Values).toEqual([[0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(p.Chart.Times).toHaveLength(400);
    expect(p.Chart.Times.at(-1)).toBe(p.Last);
    // Nothing is stored before the commit.
    expect((await call("GET", "/history/structure/sources")).body.Data.some((s: { Name: string }) => s.Name === "Staged bench")).toBe(false);
    const committed = await call("POST", `/history/data/import/${id}/commit`, { MeasurementName: "Bench run 12" });
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.Data).toMatchObject({ Name: "Bench run 12", Rows: 2000, SampleRateHz: 25, Start: t0 / 1000 });
    expect((await call("GET", `/history/data/import/${id}`)).status).toBe(404);
  });

  it("stages the vendor's CSV, detects its layout, previews other choices, cancels, and commits with the layout chosen", async () => {
    const bom = "\ufeff";
    const text = [`${bom}Zeit;Druck;Temperatur`, `${bom};bar;°C`, ...Array.from({ length: 30 }, (_, i) => `${bom}01.02.2024 10:00:${String(i).padStart(2, "0")};${i},5;${i % 3 ? `${20 + i},25` : "NaN"}`)].join("\r\n");
    const bytes = new TextEncoder().encode(text);
    const opened = await call("POST", "/history/data/import", { Staged: true, SourceName: "Vendor CSV" });
    const id = opened.body.Data.SessionId;
    expect((await call("POST", `/history/data/import/${id}`, bytes)).status).toBe(200);
    const p = (await call("POST", `/history/data/import/${id}/preview`, {})).body.Data;
    expect(p).toMatchObject({ Type: "csv", Detected: true, Rows: 30, First: Date.UTC(2024, 1, 1, 10), Last: Date.UTC(2024, 1, 1, 10, 0, 29), SampleRateHz: 1, Problem: null });
    expect(p.CSVSettings).toEqual({ ColumnSeparator: ";", DecimalSeparator: ",", NameRowIndex: 0, UnitRowIndex: 1, ValuesStartRowIndex: 2, ValuesStartColumnIndex: 1, DateTimeFmtColumn1: "%d.%m.%Y %H:%M:%S" });
    expect(p.Variables).toEqual([{ Name: "Druck", Unit: "bar" }, { Name: "Temperatur", Unit: "°C" }]);
    expect(p.FirstRows.Values[1].slice(0, 3)).toEqual([null, 21.25, 22.25]);
    // Another decimal separator: the preview says what the import would refuse.
    const wrong = (await call("POST", `/history/data/import/${id}/preview`, { CSVSettings: { ...p.CSVSettings, DecimalSeparator: "." } })).body.Data;
    expect(wrong.Problem).toMatch(/^Line 3, column 2 \(Druck\): cannot read "0,5"/);
    const committed = await call("POST", `/history/data/import/${id}/commit`, { CSVSettings: p.CSVSettings });
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.Data).toMatchObject({ Rows: 30, SampleRateHz: 1 });

    const other = (await call("POST", "/history/data/import", { Staged: true, SourceName: "Never" })).body.Data.SessionId;
    expect((await call("POST", `/history/data/import/${other}`, bytes)).status).toBe(200);
    expect((await call("POST", `/history/data/import/${other}/cancel`)).status).toBe(200);
    expect((await call("GET", `/history/data/import/${other}`)).status).toBe(404);
    expect((await call("GET", "/history/structure/sources")).body.Data.some((s: { Name: string }) => s.Name === "Never")).toBe(false);
  });

  it("previews a data file in the file browser's root in place and imports it from there", async () => {
    const { writeFileSync, mkdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(lg.dataDir, "files", "bench");
    mkdirSync(dir, { recursive: true });
    const t0 = Date.UTC(2019, 6, 1) * 1000;
    writeFileSync(join(dir, "run.dat"), file([{ name: "U", unit: "V", direction: 0, type: TYPE.f32, precision: 3 }], 100, Array.from({ length: 500 }, (_, i) => [t0 + i * 10_000, Math.fround(i * 0.01)])));
    const p = await call("POST", "/files/preview", { Path: "bench/run.dat" });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.Data).toMatchObject({ Path: "bench/run.dat", Type: "udbf", Rows: 500, SampleRateHz: 100, First: t0 / 1000, Last: t0 / 1000 + 4990 });
    expect((await call("POST", "/files/preview", { Path: "bench/none.dat" })).status).toBe(404);
    const opened = await call("POST", "/history/data/import", { File: "bench/run.dat", SourceName: "From files" });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const id = opened.body.Data.SessionId;
    // A file session takes no bytes.
    expect((await call("POST", `/history/data/import/${id}`, new Uint8Array(3))).status).toBe(400);
    const done = await call("POST", `/history/data/import/${id}/commit`, {});
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.Data).toMatchObject({ Rows: 500, SampleRateHz: 100 });
  });
});
