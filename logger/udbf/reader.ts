import { DIRECTION_NAME, EXACT_IN_F32, OLE_UNIX_DAYS, TYPE, TYPE_NAME, TYPE_SIZE, UDBF_VERSION } from "./format.ts";
import { decodeCp1252 } from "./text.ts";

// Reads UDBF 1.07 (UDBF.md) from bytes that arrive in any parts: the header may be cut anywhere,
// rows too. Nothing is held but the header and one partial row (in batch mode, the import's, up
// to 1 MB of rows waiting to be decoded column by column). Every problem is a UdbfError
// naming what is wrong and the byte offset in the file where it is.

export type UdbfVariableInfo = {
  Name: string;
  Unit: string;
  /** 0 input, 1 output, 2 input/output, 3 empty. */
  Direction: number;
  DataType: number;
  FieldLength: number;
  Precision: number;
};

export type UdbfInfo = {
  littleEndian: boolean;
  version: number;
  vendor: string;
  sampleRateHz: number;
  /** Epoch ms of time stamp 0 (start time × day factor as an OLE date). */
  startMs: number;
  timeType: number;
  /** Seconds per time stamp unit (1e-9 in the family's files). */
  timeFactor: number;
  variables: UdbfVariableInfo[];
  /** Byte offset of the sample rate field (for messages about it). */
  rateOffset: number;
  /** Byte offset of the first row. */
  dataOffset: number;
  rowBytes: number;
};

/** Receives every row: its time (epoch µs, fractional), its byte offset in the file and its values as float32 (reused: copy what you keep). */
export type UdbfRowSink = (us: number, offset: number, values: Float32Array) => void;

/**
 * Complete rows decoded column by column (the import's bulk path): row i of the batch is row
 * `first + i` of the file, at byte dataOffset + (first + i) × rowBytes. Arrays are reused.
 */
export type UdbfBatch = {
  rows: number;
  first: number;
  /** Time of each row, epoch µs (fractional). */
  us: Float64Array;
  /** Each variable's values as float32, in header order. */
  columns: Float32Array[];
};
export type UdbfBatchSink = (batch: UdbfBatch) => void;

/** Bytes of rows decoded per batch (rows are copied there first, into a buffer of their own: aligned views). */
const BATCH_BYTES = 1024 * 1024;

export class UdbfError extends Error {
  /** Where in the file the problem is. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`Byte ${offset}: ${message}`);
    this.offset = offset;
  }
}

/** The largest header read (names and units of 65,535 variables fit easily). */
export const MAX_HEADER_BYTES = 16 * 1024 * 1024;
const MS_PER_DAY = 86_400_000;

/** Whether a file starts like UDBF: endianness byte 0 or 1, then version 107 either way. */
export function looksLikeUdbf(head: Uint8Array): boolean {
  if (head.length < 3 || head[0]! > 1) return false;
  const version = head[0] === 0 ? head[1]! | (head[2]! << 8) : (head[1]! << 8) | head[2]!;
  return version === UDBF_VERSION;
}

/** The header at the start of `bytes`; null when more bytes are needed. Throws UdbfError. */
export function parseHeader(bytes: Uint8Array): UdbfInfo | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number) => at + n <= bytes.length;
  if (!need(1)) return null;
  const endian = bytes[0]!;
  if (endian > 1) throw new UdbfError(`endianness ${endian} is neither 0 (little-endian) nor 1 (big-endian); is this a UDBF file?`, 0);
  const le = endian === 0;
  at = 1;
  const u16 = () => {
    const v = view.getUint16(at, le);
    at += 2;
    return v;
  };
  const f64 = () => {
    const v = view.getFloat64(at, le);
    at += 8;
    return v;
  };
  // Each step returns null when the bytes end before it.
  const str = (): string | null => {
    if (!need(2)) return null;
    const n = view.getUint16(at, le);
    if (!need(2 + n)) return null;
    const text = decodeCp1252(bytes.subarray(at + 2, at + 2 + n));
    at += 2 + n;
    return text;
  };
  const additional = (what: string): boolean | null => {
    if (!need(2)) return null;
    const start = at;
    const n = view.getUint16(at, le);
    if (n > 0 && n < 4) throw new UdbfError(`${what} additional data of ${n} bytes; a block has at least 4 (type and struct id)`, start);
    if (!need(2 + n)) return null;
    at += 2 + n;
    return true;
  };
  if (!need(2)) return null;
  const version = u16();
  if (version !== UDBF_VERSION) throw new UdbfError(`version ${version}: this reader knows UDBF ${UDBF_VERSION / 100} (${UDBF_VERSION})`, 1);
  const vendor = str();
  if (vendor === null || !need(1)) return null;
  const checksumAt = at;
  const checksum = bytes[at++]!;
  if (checksum !== 0) throw new UdbfError(`the file says it has a checksum (${checksum}); only files without one (0, as the family writes them) are read`, checksumAt);
  if (additional("the module's") === null) return null;
  if (!need(8 + 2 + 8 + 8 + 8 + 2)) return null;
  const dayFactorAt = at;
  const dayFactor = f64();
  const timeTypeAt = at;
  const timeType = u16();
  const timeFactorAt = at;
  const timeFactor = f64();
  const startAt = at;
  const startTime = f64();
  const rateAt = at;
  const sampleRateHz = f64();
  const count = u16();
  if (!(Number.isFinite(dayFactor) && dayFactor > 0)) throw new UdbfError(`start time to day factor ${dayFactor} must be a positive number`, dayFactorAt);
  if (!TYPE_SIZE[timeType] || timeType === TYPE.boolean || (timeType >= 9 && timeType <= 11) || timeType === 15) {
    throw new UdbfError(`time data type ${timeType} (${TYPE_NAME[timeType] ?? "unknown"}) is no number type`, timeTypeAt);
  }
  if (!(Number.isFinite(timeFactor) && timeFactor > 0)) throw new UdbfError(`time to second factor ${timeFactor} must be a positive number`, timeFactorAt);
  if (!Number.isFinite(startTime)) throw new UdbfError(`start time ${startTime} is not a number`, startAt);
  if (!(Number.isFinite(sampleRateHz) && sampleRateHz > 0)) throw new UdbfError(`sample rate ${sampleRateHz} Hz must be above 0`, rateAt);
  if (count === 0) throw new UdbfError("the file has no variables", rateAt + 8);
  const variables: UdbfVariableInfo[] = [];
  let rowBytes = TYPE_SIZE[timeType]!;
  for (let i = 0; i < count; i++) {
    const nameAt = at;
    const name = str();
    if (name === null || !need(8)) return null;
    const Direction = u16();
    const typeAt = at;
    const DataType = u16();
    const FieldLength = u16();
    const Precision = u16();
    const Unit = str();
    if (Unit === null) return null;
    if (additional(`variable ${i + 1}'s`) === null) return null;
    if (!TYPE_SIZE[DataType]) throw new UdbfError(`variable ${i + 1} (${name}) has data type ${DataType}; known types are 1–15`, typeAt);
    if (Direction > 3) throw new UdbfError(`variable ${i + 1} (${name}) has direction ${Direction}; known are 0–3`, typeAt - 2);
    if (!name.trim()) throw new UdbfError(`variable ${i + 1} has no name`, nameAt);
    variables.push({ Name: name.trim(), Unit: Unit.trim(), Direction, DataType, FieldLength, Precision });
    rowBytes += TYPE_SIZE[DataType]!;
  }
  // At least 8 "*", then up to the next multiple of 16.
  const sepAt = at;
  const dataOffset = sepAt + 8 + ((16 - ((sepAt + 8) % 16)) % 16);
  if (!need(dataOffset - sepAt)) return null;
  for (let i = sepAt; i < dataOffset; i++) {
    if (bytes[i] !== 0x2a) throw new UdbfError(`expected the separator "*" (8 to 23 of them up to a multiple of 16, here ${dataOffset - sepAt}) after the variables, found byte ${bytes[i]}`, i);
  }
  const startMs = (startTime * dayFactor - OLE_UNIX_DAYS) * MS_PER_DAY;
  return { littleEndian: le, version, vendor, sampleRateHz, startMs, timeType, timeFactor, variables, rateOffset: rateAt, dataOffset, rowBytes };
}

/** Whether a variable's values lose precision in the store's float32 (the preview and the import answer say so). */
export const lossyType = (t: number) => !EXACT_IN_F32.has(t);

export const directionName = (d: number) => DIRECTION_NAME[d] ?? "";

/**
 * Reads a file from its bytes in any parts: push() each part, end() after the last. Rows go to
 * the sink as they complete; time stamps must increase. Throws UdbfError at the first problem.
 */
export class UdbfReader {
  info: UdbfInfo | null = null;
  /** Bytes taken so far. */
  offset = 0;
  rows = 0;
  firstUs = Number.NaN;
  lastUs = Number.NaN;
  /** Per variable: whether a value was seen that float32 does not hold exactly. */
  inexact: boolean[] = [];
  private head: Uint8Array | null = new Uint8Array(0);
  private row = new Uint8Array(0);
  private rowLen = 0;
  private values = new Float32Array(0);
  private readonly sink: UdbfRowSink;
  private decode: ((view: DataView, at: number) => number) | null = null;
  private readonly onHeader: ((info: UdbfInfo) => void) | null;
  private readonly batchSink: UdbfBatchSink | null;
  private batch: UdbfBatch | null = null;
  /** Batch mode: rows waiting to be decoded (a whole number of them once decoded, plus one partial row). */
  private work = new Uint8Array(0);
  private workLen = 0;

  /**
   * onHeader: called once the header is read, before the first row. batchSink: rows go there in
   * batches, decoded column by column, instead of one by one to `sink` (the same checks, the same
   * errors at the same rows).
   */
  constructor(sink: UdbfRowSink, onHeader: ((info: UdbfInfo) => void) | null = null, batchSink: UdbfBatchSink | null = null) {
    this.sink = sink;
    this.onHeader = onHeader;
    this.batchSink = batchSink;
  }

  push(part: Uint8Array): void {
    let bytes = part;
    if (this.head) {
      const joined = new Uint8Array(this.head.length + part.length);
      joined.set(this.head);
      joined.set(part, this.head.length);
      const info = parseHeader(joined);
      if (!info) {
        if (joined.length > MAX_HEADER_BYTES) throw new UdbfError(`no complete header within ${MAX_HEADER_BYTES} bytes`, 0);
        this.head = joined;
        this.offset += part.length;
        return;
      }
      this.start(info);
      this.head = null;
      // The header's bytes are taken; the rest is data.
      bytes = joined.subarray(info.dataOffset);
      this.offset = info.dataOffset;
    }
    if (this.batchSink) this.batchesOf(bytes);
    else this.rowsOf(bytes);
  }

  end(): void {
    if (this.head) {
      if (this.offset === 0) throw new UdbfError("the file is empty", 0);
      throw new UdbfError(`the file ends inside its header (${this.offset} bytes): it is cut short, or not a UDBF file`, this.offset);
    }
    if (this.batchSink) {
      this.flush();
      this.rowLen = this.workLen;
    }
    if (this.rowLen > 0) {
      const info = this.info!;
      throw new UdbfError(`the file ends ${this.rowLen} bytes into row ${this.rows + 1} (a row has ${info.rowBytes} bytes): it is cut short`, this.offset - this.rowLen);
    }
  }

  private start(info: UdbfInfo): void {
    this.info = info;
    this.row = new Uint8Array(info.rowBytes);
    this.values = new Float32Array(info.variables.length);
    this.inexact = info.variables.map(() => false);
    this.decode = timeDecoder(info);
    if (this.batchSink) {
      const rows = Math.max(1, Math.floor(BATCH_BYTES / info.rowBytes));
      this.work = new Uint8Array(rows * info.rowBytes);
      this.batch = { rows: 0, first: 0, us: new Float64Array(rows), columns: info.variables.map(() => new Float32Array(rows)) };
    }
    this.onHeader?.(info);
  }

  /** Batch mode: bytes into the work buffer, every full buffer decoded, the rest kept for the next part. */
  private batchesOf(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const n = Math.min(this.work.length - this.workLen, bytes.length - at);
      this.work.set(bytes.subarray(at, at + n), this.workLen);
      this.workLen += n;
      at += n;
      if (this.workLen === this.work.length) this.decodeWork();
    }
    this.offset += bytes.length;
  }

  /**
   * Batch mode: decodes the complete rows still waiting (the buffer only decodes when full, so
   * that the 64 KB pieces of a request body make 1 MB batches): call it at the end of each part,
   * so that a bad row fails the part it came in. end() calls it too.
   */
  flush(): void {
    if (this.batchSink && this.info && this.workLen >= this.info.rowBytes) this.decodeWork();
  }

  private decodeWork(): void {
    const info = this.info!;
    const size = info.rowBytes;
    const n = Math.floor(this.workLen / size);
    const b = this.batch!;
    b.rows = n;
    b.first = this.rows;
    decodeBatch(info, this.work, n, b, this.inexact, this.decode!);
    // Times must increase, from the previous batch's last row on. The rows before a bad one go
    // to the sink first, as they would one by one: its own checks may stop at one of them.
    const us = b.us;
    let bad = n;
    let problem = "";
    for (let i = 0; i < n; i++) {
      const t = us[i]!;
      const row = this.rows + i;
      const before = i > 0 ? us[i - 1]! : this.lastUs;
      if (!Number.isFinite(t)) problem = `row ${row + 1} has no valid time stamp`;
      else if (row > 0 && !(t > before)) problem = `row ${row + 1}'s time ${isoUs(t)} is not after the previous row's ${isoUs(before)}; times must increase`;
      if (problem) {
        bad = i;
        break;
      }
    }
    if (bad > 0) {
      b.rows = bad;
      if (this.rows === 0) this.firstUs = us[0]!;
      this.lastUs = us[bad - 1]!;
      this.rows += bad;
      this.batchSink!(b);
    }
    if (problem) throw new UdbfError(problem, info.dataOffset + this.rows * size);
    const rest = this.workLen - n * size;
    this.work.copyWithin(0, n * size, this.workLen);
    this.workLen = rest;
  }

  private rowsOf(bytes: Uint8Array): void {
    const info = this.info!;
    const size = info.rowBytes;
    let i = 0;
    if (this.rowLen > 0) {
      const n = Math.min(size - this.rowLen, bytes.length);
      this.row.set(bytes.subarray(0, n), this.rowLen);
      this.rowLen += n;
      i = n;
      if (this.rowLen < size) {
        this.offset += n;
        return;
      }
      this.readRow(new DataView(this.row.buffer), 0, this.offset - (size - n));
      this.rowLen = 0;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const base = this.offset;
    const full = i + Math.floor((bytes.length - i) / size) * size;
    for (; i < full; i += size) this.readRow(view, i, base + i);
    const rest = bytes.length - full;
    if (rest > 0) {
      this.row.set(bytes.subarray(full), 0);
      this.rowLen = rest;
    }
    this.offset += bytes.length;
  }

  private readRow(view: DataView, at: number, fileOffset: number): void {
    const info = this.info!;
    const values = this.values;
    const us = this.decode!(view, at);
    if (!Number.isFinite(us)) throw new UdbfError(`row ${this.rows + 1} has no valid time stamp`, fileOffset);
    if (this.rows > 0 && !(us > this.lastUs)) {
      throw new UdbfError(`row ${this.rows + 1}'s time ${isoUs(us)} is not after the previous row's ${isoUs(this.lastUs)}; times must increase`, fileOffset);
    }
    decodeValues(info, view, at, this.values, this.inexact);
    if (this.rows === 0) this.firstUs = us;
    this.lastUs = us;
    this.rows++;
    this.sink(us, fileOffset, values);
  }
}

/**
 * Decodes n rows at the start of `bytes` (its own buffer: offset 0) into b.us and b.columns.
 * The family's layout (little-endian, u64 ns time, rows of whole words) goes through typed-array
 * views, a float32 column as a strided read; other layouts and types through the DataView.
 */
function decodeBatch(info: UdbfInfo, bytes: Uint8Array, n: number, b: UdbfBatch, inexact: boolean[], time: (view: DataView, at: number) => number): void {
  const size = info.rowBytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * size);
  const words = info.littleEndian && size % 4 === 0 && bytes.byteOffset % 4 === 0;
  const u32 = words ? new Uint32Array(bytes.buffer, bytes.byteOffset, (n * size) >> 2) : null;
  const f32 = words ? new Float32Array(bytes.buffer, bytes.byteOffset, (n * size) >> 2) : null;
  const stride = size >> 2;
  const us = b.us;
  if (u32 && info.timeType === TYPE.u64 && info.timeFactor * 1e6 === 1e-3) {
    // hi × 2^32 + lo nanoseconds = hi × 4294967.296 µs + lo / 1000 µs (as timeDecoder).
    const startUs = info.startMs * 1000;
    for (let i = 0, w = 0; i < n; i++, w += stride) us[i] = startUs + u32[w + 1]! * 4294967.296 + u32[w]! / 1000;
  } else {
    for (let i = 0; i < n; i++) us[i] = time(view, i * size);
  }
  const le = info.littleEndian;
  let off = TYPE_SIZE[info.timeType]!;
  info.variables.forEach((v, k) => {
    const col = b.columns[k]!;
    const t = v.DataType;
    if (t === TYPE.f32 && f32 && off % 4 === 0) {
      for (let i = 0, w = off >> 2; i < n; i++, w += stride) col[i] = f32[w]!;
    } else if (t === TYPE.f32) {
      for (let i = 0, p = off; i < n; i++, p += size) col[i] = view.getFloat32(p, le);
    } else {
      let rounded = false;
      for (let i = 0, p = off; i < n; i++, p += size) {
        const x = valueAt(view, p, t, le);
        const f = Math.fround(x);
        if (f !== x && x === x) rounded = true;
        col[i] = f;
      }
      if (rounded) inexact[k] = true;
    }
    off += TYPE_SIZE[t]!;
  });
}

/** A value of type t at byte p, as a number (64-bit integers through BigInt). */
function valueAt(view: DataView, p: number, t: number, le: boolean): number {
  switch (t) {
    case TYPE.f32:
      return view.getFloat32(p, le);
    case TYPE.boolean:
      return view.getUint8(p) !== 0 ? 1 : 0;
    case TYPE.i8:
      return view.getInt8(p);
    case TYPE.u8:
    case TYPE.bitset8:
      return view.getUint8(p);
    case TYPE.i16:
      return view.getInt16(p, le);
    case TYPE.u16:
    case TYPE.bitset16:
      return view.getUint16(p, le);
    case TYPE.i32:
      return view.getInt32(p, le);
    case TYPE.u32:
    case TYPE.bitset32:
      return view.getUint32(p, le);
    case TYPE.f64:
      return view.getFloat64(p, le);
    case TYPE.i64:
      return Number(view.getBigInt64(p, le));
    default:
      return Number(view.getBigUint64(p, le));
  }
}

/**
 * The values of the row at `at` as float32 (booleans 0/1, integers and f64 as float32 makes
 * them); `inexact[k]` turns true when float32 changed a value of variable k.
 */
export function decodeValues(info: UdbfInfo, view: DataView, at: number, values: Float32Array, inexact: boolean[] | null): void {
  const le = info.littleEndian;
  let p = at + TYPE_SIZE[info.timeType]!;
  const vars = info.variables;
  for (let k = 0; k < vars.length; k++) {
    const t = vars[k]!.DataType;
    let v: number;
    if (t === TYPE.f32) {
      values[k] = view.getFloat32(p, le);
      p += 4;
      continue;
    }
    switch (t) {
      case TYPE.boolean:
        v = view.getUint8(p) !== 0 ? 1 : 0;
        break;
      case TYPE.i8:
        v = view.getInt8(p);
        break;
      case TYPE.u8:
      case TYPE.bitset8:
        v = view.getUint8(p);
        break;
      case TYPE.i16:
        v = view.getInt16(p, le);
        break;
      case TYPE.u16:
      case TYPE.bitset16:
        v = view.getUint16(p, le);
        break;
      case TYPE.i32:
        v = view.getInt32(p, le);
        break;
      case TYPE.u32:
      case TYPE.bitset32:
        v = view.getUint32(p, le);
        break;
      case TYPE.f64:
        v = view.getFloat64(p, le);
        break;
      case TYPE.i64:
        v = Number(view.getBigInt64(p, le));
        break;
      default:
        v = Number(view.getBigUint64(p, le));
    }
    const f = Math.fround(v);
    if (inexact && f !== v && v === v) inexact[k] = true;
    values[k] = f;
    p += TYPE_SIZE[t]!;
  }
}

/** Decodes a row's time stamp to epoch µs. */
export function timeDecoder(info: UdbfInfo): (view: DataView, at: number) => number {
  const le = info.littleEndian;
  const startUs = info.startMs * 1000;
  const f = info.timeFactor * 1e6;
  switch (info.timeType) {
    case TYPE.u64:
    case TYPE.i64: {
      const signed = info.timeType === TYPE.i64;
      // Nanoseconds (the family's factor 1e-9) as exact integer µs plus the rest: a u64 of
      // nanoseconds passes 2^53, so the two words are combined without losing the µs.
      return (view, at) => {
        const lo = view.getUint32(at + (le ? 0 : 4), le);
        const hiWord = le ? (signed ? view.getInt32(at + 4, le) : view.getUint32(at + 4, le)) : signed ? view.getInt32(at, le) : view.getUint32(at, le);
        if (f === 1e-3) {
          // hi × 2^32 + lo nanoseconds = hi × 4294967.296 µs + lo / 1000 µs.
          return startUs + hiWord * 4294967.296 + lo / 1000;
        }
        return startUs + (hiWord * 4294967296 + lo) * f;
      };
    }
    case TYPE.f64:
      return (view, at) => startUs + view.getFloat64(at, le) * f;
    case TYPE.f32:
      return (view, at) => startUs + view.getFloat32(at, le) * f;
    case TYPE.i32:
      return (view, at) => startUs + view.getInt32(at, le) * f;
    case TYPE.u32:
      return (view, at) => startUs + view.getUint32(at, le) * f;
    case TYPE.i16:
      return (view, at) => startUs + view.getInt16(at, le) * f;
    case TYPE.u16:
      return (view, at) => startUs + view.getUint16(at, le) * f;
    case TYPE.i8:
      return (view, at) => startUs + view.getInt8(at) * f;
    default:
      return (view, at) => startUs + view.getUint8(at) * f;
  }
}

/** The farthest a Date reaches from 1970, in ms. */
const MAX_DATE_MS = 8.64e15;

/** ISO 8601 UTC with µs where the time has them; a time no date can hold (a damaged file's) as a number of µs. */
export function isoUs(us: number): string {
  const ms = Math.floor(us / 1000);
  // Said, not thrown: it is mostly the refusal of such a time that names it.
  if (!(Math.abs(ms) <= MAX_DATE_MS)) return `${us} µs from 1970`;
  const rest = Math.round(us - ms * 1000);
  const text = new Date(ms).toISOString();
  return rest ? `${text.slice(0, -1)}${String(rest).padStart(3, "0")}Z` : text;
}
