// UDBF 1.07 as shared/design/UDBF.md describes it, read and written by this suite itself (it
// imports nothing from the project): a reader for the logger's exports, a writer for files to
// import, little- or big-endian.

export const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 4, 8: 4, 9: 1, 10: 2, 11: 4, 12: 8, 13: 8, 14: 8, 15: 8 };

export interface UdbfVar {
  name: string;
  direction: number;
  type: number;
  fieldLength: number;
  precision: number;
  unit: string;
}
export interface UdbfFile {
  bigEndian: boolean;
  version: number;
  vendor: string;
  checksum: number;
  moduleAdditional: number;
  dayFactor: number;
  timeType: number;
  timeFactor: number;
  startTime: number;
  sampleRate: number;
  variables: UdbfVar[];
  separator: number;
  dataOffset: number;
  /** Each row: its time (epoch ms, from the start time, its factors and the stamp as an exact integer) and values. */
  rows: { ms: number; stamp: bigint; values: number[] }[];
  /** Bytes after the last whole row (a correct file has none). */
  rest: number;
}

const OLE_EPOCH_MS = Date.UTC(1899, 11, 30);

function text(bytes: Uint8Array): string {
  let e = bytes.length;
  while (e > 0 && bytes[e - 1] === 0) e--;
  return new TextDecoder("windows-1252").decode(bytes.subarray(0, e));
}

export function readUdbf(bytes: Uint8Array): UdbfFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const bigEndian = view.getUint8(at++) === 1;
  const le = !bigEndian;
  const u16 = () => ((at += 2), view.getUint16(at - 2, le));
  const f64 = () => ((at += 8), view.getFloat64(at - 8, le));
  const str = () => {
    const n = u16();
    at += n;
    return text(bytes.subarray(at - n, at));
  };
  const additional = () => {
    const n = u16();
    at += n;
    return n;
  };
  const version = u16();
  const vendor = str();
  const checksum = view.getUint8(at++);
  const moduleAdditional = additional();
  const dayFactor = f64();
  const timeType = u16();
  const timeFactor = f64();
  const startTime = f64();
  const sampleRate = f64();
  const count = u16();
  const variables: UdbfVar[] = [];
  for (let i = 0; i < count; i++) {
    const name = str();
    const direction = u16();
    const type = u16();
    const fieldLength = u16();
    const precision = u16();
    const unit = str();
    additional();
    variables.push({ name, direction, type, fieldLength, precision, unit });
  }
  let separator = 0;
  while (bytes[at] === 0x2a && (separator < 8 || at % 16 !== 0)) (separator++, at++);
  const dataOffset = at;
  const rowBytes = TYPE_SIZES[timeType]! + variables.reduce((n, v) => n + TYPE_SIZES[v.type]!, 0);
  const rows: UdbfFile["rows"] = [];
  const base = OLE_EPOCH_MS + startTime * dayFactor * 86_400_000;
  for (; at + rowBytes <= bytes.length; ) {
    const stamp = readValue(view, at, timeType, le);
    at += TYPE_SIZES[timeType]!;
    const values = variables.map((v) => {
      const x = Number(readValue(view, at, v.type, le));
      at += TYPE_SIZES[v.type]!;
      return x;
    });
    // ms = base + stamp × factor s: with the family's 1e-9 the stamp is split exactly first.
    const ms = typeof stamp === "bigint" && timeFactor === 1e-9 ? base + Number(stamp / 1_000_000n) + Number(stamp % 1_000_000n) / 1e6 : base + Number(stamp) * timeFactor * 1000;
    rows.push({ ms, stamp: typeof stamp === "bigint" ? stamp : BigInt(Math.round(Number(stamp))), values });
  }
  return { bigEndian, version, vendor, checksum, moduleAdditional, dayFactor, timeType, timeFactor, startTime, sampleRate, variables, separator, dataOffset, rows, rest: bytes.length - at };
}

function readValue(view: DataView, at: number, type: number, le: boolean): number | bigint {
  switch (type) {
    case 1: return view.getUint8(at) ? 1 : 0;
    case 2: return view.getInt8(at);
    case 3: case 9: return view.getUint8(at);
    case 4: return view.getInt16(at, le);
    case 5: case 10: return view.getUint16(at, le);
    case 6: return view.getInt32(at, le);
    case 7: case 11: return view.getUint32(at, le);
    case 8: return view.getFloat32(at, le);
    case 12: return view.getFloat64(at, le);
    case 13: return view.getBigInt64(at, le);
    default: return view.getBigUint64(at, le);
  }
}

/** A file as the family writes it (u64 ns since 2000-01-01), in either byte order. */
export function writeUdbf(vars: UdbfVar[], sampleRate: number, rows: { ns: bigint; values: number[] }[], bigEndian = false): Uint8Array<ArrayBuffer> {
  const le = !bigEndian;
  const out: number[] = [];
  const put = (size: number, write: (v: DataView) => void) => {
    const b = new Uint8Array(size);
    write(new DataView(b.buffer));
    out.push(...b);
  };
  const u16 = (v: number) => put(2, (d) => d.setUint16(0, v, le));
  const f64 = (v: number) => put(8, (d) => d.setFloat64(0, v, le));
  const str = (t: string) => {
    const b = [...t].map((c) => c.charCodeAt(0));
    u16(b.length + 1);
    out.push(...b, 0);
  };
  out.push(bigEndian ? 1 : 0);
  u16(107);
  str("UniversalDataBinFile - conformance suite");
  out.push(0);
  u16(0);
  f64(1);
  u16(14);
  f64(1e-9);
  f64(36526);
  f64(sampleRate);
  u16(vars.length);
  for (const v of vars) {
    str(v.name);
    u16(v.direction);
    u16(v.type);
    u16(v.fieldLength);
    u16(v.precision);
    str(v.unit);
    u16(0);
  }
  for (let n = 8 + ((16 - ((out.length + 8) % 16)) % 16); n > 0; n--) out.push(0x2a);
  for (const r of rows) {
    put(8, (d) => d.setBigUint64(0, r.ns, le));
    r.values.forEach((x, i) => {
      const t = vars[i]!.type;
      put(TYPE_SIZES[t]!, (d) => {
        if (t === 1 || t === 3) d.setUint8(0, x);
        else if (t === 2) d.setInt8(0, x);
        else if (t === 4) d.setInt16(0, x, le);
        else if (t === 5) d.setUint16(0, x, le);
        else if (t === 6) d.setInt32(0, x, le);
        else if (t === 7) d.setUint32(0, x, le);
        else if (t === 8) d.setFloat32(0, x, le);
        else if (t === 12) d.setFloat64(0, x, le);
        else throw new Error(`type ${t} not written by this suite`);
      });
    });
  }
  return Uint8Array.from(out);
}

/** Nanoseconds since 2000-01-01 of an epoch ms. */
export const nsSince2000 = (ms: number) => BigInt(Math.round(ms - Date.UTC(2000, 0, 1))) * 1_000_000n;
