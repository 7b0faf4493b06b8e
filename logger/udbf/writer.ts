import { EPOCH_2000_MS, FAMILY_START_DAYS, OLE_UNIX_DAYS, TYPE, TYPE_SIZE, UDBF_VERSION, VENDOR, separatorLength } from "./format.ts";
import type { TypeCode } from "./format.ts";
import { encodeCp1252 } from "./text.ts";

// Writes UDBF 1.07 as the family does (little-endian, no checksum, no additional data, time as
// u64 nanoseconds since a start day): a header, then rows encoded slice by slice into one
// reused buffer, so an export of any size costs a fixed amount of memory.

export type UdbfVariable = {
  name: string;
  unit: string;
  /** 0 input, 1 output, 2 input/output, 3 empty. */
  direction: number;
  type: TypeCode;
  /** Decimals shown. */
  precision: number;
  /** Display width; default from the type. */
  fieldLength?: number;
};

export type UdbfHeader = {
  bytes: Uint8Array;
  /** Epoch ms that time stamp 0 stands for. */
  baseMs: number;
  rowBytes: number;
};

/**
 * The header of a file with these variables. Time stamps count nanoseconds from 2000-01-01 (the
 * family's start day) unless `firstMs` lies before it: then from 1970-01-01, so that no time
 * stamp is negative (they are u64).
 */
export function udbfHeader(vars: readonly UdbfVariable[], sampleRateHz: number, firstMs = EPOCH_2000_MS): UdbfHeader {
  if (vars.length < 1 || vars.length > 65535) throw new Error(`A UDBF file holds 1–65535 variables, not ${vars.length}`);
  const startDays = firstMs >= EPOCH_2000_MS ? FAMILY_START_DAYS : OLE_UNIX_DAYS;
  const parts: number[] = [];
  const u8 = (v: number) => parts.push(v & 0xff);
  const u16 = (v: number) => parts.push(v & 0xff, (v >> 8) & 0xff);
  const f64 = (v: number) => parts.push(...new Uint8Array(Float64Array.of(v).buffer));
  const str = (text: string) => {
    // NUL-terminated inside the length, as the family writes them.
    const b = encodeCp1252(text).subarray(0, 65534);
    u16(b.length + 1);
    parts.push(...b, 0);
  };
  u8(0); // little-endian
  u16(UDBF_VERSION);
  str(VENDOR);
  u8(0); // no checksum
  u16(0); // no module additional data
  f64(1); // start time in days
  u16(TYPE.u64);
  f64(1e-9); // time stamps count nanoseconds
  f64(startDays);
  f64(sampleRateHz);
  u16(vars.length);
  for (const v of vars) {
    str(v.name);
    u16(v.direction);
    u16(v.type);
    u16(v.fieldLength ?? (v.type === TYPE.boolean ? 1 : 10));
    u16(Math.max(0, Math.min(65535, v.precision)));
    str(v.unit);
    u16(0); // no additional data
  }
  const sep = separatorLength(parts.length);
  for (let i = 0; i < sep; i++) parts.push(0x2a);
  const rowBytes = 8 + vars.reduce((n, v) => n + TYPE_SIZE[v.type]!, 0);
  return { bytes: Uint8Array.from(parts), baseMs: startDays === FAMILY_START_DAYS ? EPOCH_2000_MS : 0, rowBytes };
}

/**
 * Encodes rows of one file: `row(us, values)` appends a time stamp (epoch µs, an integer) and one
 * value per variable, converted to its type (NaN, a gap, only where the type is a float; the
 * caller decides which types a column may have). take() hands the encoded bytes over.
 */
export class UdbfRows {
  readonly rowBytes: number;
  private readonly types: readonly TypeCode[];
  private readonly baseUs: number;
  private readonly allF32: boolean;
  private buf: Buffer;
  private view: DataView;
  private f32: Float32Array;
  private u32: Uint32Array;
  rows = 0;
  private pos = 0;

  constructor(header: UdbfHeader, types: readonly TypeCode[], rowsPerSlice: number) {
    this.rowBytes = header.rowBytes;
    this.types = types;
    this.baseUs = header.baseMs * 1000;
    this.allF32 = types.every((t) => t === TYPE.f32);
    this.buf = Buffer.allocUnsafeSlow(Math.max(1, rowsPerSlice) * this.rowBytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.f32 = new Float32Array(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength >> 2);
    this.u32 = new Uint32Array(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength >> 2);
  }

  /** Room for this many more rows (the buffer grows when a slice holds more). */
  reserve(rows: number): void {
    const need = this.pos + rows * this.rowBytes;
    if (need <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(need * 2);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
    this.f32 = new Float32Array(grown.buffer, grown.byteOffset, grown.byteLength >> 2);
    this.u32 = new Uint32Array(grown.buffer, grown.byteOffset, grown.byteLength >> 2);
  }

  /** Starts a row at epoch µs `us` (a whole number, not before the header's base). */
  time(us: number): void {
    const [hi, lo] = nanos(us - this.baseUs);
    // Buffers from allocUnsafeSlow start at offset 0, rows are whole multiples of 4: aligned word writes.
    if (this.allF32) {
      const w = this.pos >> 2;
      this.u32[w] = lo;
      this.u32[w + 1] = hi;
    } else {
      this.view.setUint32(this.pos, lo, true);
      this.view.setUint32(this.pos + 4, hi, true);
    }
    this.pos += 8;
    this.rows++;
  }

  /** The next value of the row begun by time(), for variable i in order. */
  value(i: number, v: number): void {
    const t = this.types[i]!;
    if (t === TYPE.f32) {
      if (this.allF32) this.f32[this.pos >> 2] = v;
      else this.view.setFloat32(this.pos, v, true);
      this.pos += 4;
      return;
    }
    writeValue(this.view, this.pos, t, v);
    this.pos += TYPE_SIZE[t]!;
  }

  /** The bytes encoded since the last take() (valid until the next row). */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    return out;
  }
}

/** [hi, lo] u32 words of us × 1000 for 0 ≤ us < 2^53 µs, exactly (the product passes 2^53). */
export function nanos(us: number): [number, number] {
  const sec = Math.floor(us / 1e6);
  const rest = us - sec * 1e6;
  // sec × 1e9 = (sec × 1953125) × 2^9, and sec × 1953125 < 2^53 for any date a u64 reaches.
  const x = sec * 1953125;
  const xh = Math.floor(x / 8388608);
  const low = (x - xh * 8388608) * 512 + rest * 1000;
  const carry = Math.floor(low / 4294967296);
  return [xh + carry, low - carry * 4294967296];
}

export function writeValue(view: DataView, at: number, t: TypeCode, v: number): void {
  const n = Number.isFinite(v) ? v : 0;
  switch (t) {
    case TYPE.boolean:
      return view.setUint8(at, n !== 0 ? 1 : 0);
    case TYPE.i8:
      return view.setInt8(at, Math.round(n));
    case TYPE.u8:
    case TYPE.bitset8:
      return view.setUint8(at, Math.round(n));
    case TYPE.i16:
      return view.setInt16(at, Math.round(n), true);
    case TYPE.u16:
    case TYPE.bitset16:
      return view.setUint16(at, Math.round(n), true);
    case TYPE.i32:
      return view.setInt32(at, Math.round(n), true);
    case TYPE.u32:
    case TYPE.bitset32:
      return view.setUint32(at, Math.round(n), true);
    case TYPE.f64:
      return view.setFloat64(at, v, true);
    case TYPE.i64:
      return view.setBigInt64(at, BigInt(Math.round(n)), true);
    case TYPE.u64:
    case TYPE.bitset64:
      return view.setBigUint64(at, BigInt(Math.max(0, Math.round(n))), true);
    default:
      return view.setFloat32(at, v, true);
  }
}
