import { TYPE, TYPE_SIZE } from "./format.ts";
import type { TypeCode } from "./format.ts";
import type { UdbfHeader } from "./writer.ts";
import { nanos, writeValue } from "./writer.ts";

// Encodes a slice of UDBF rows column by column: the time column in one pass, then each
// variable's values copied from its source array into its place in every row. Rows are
// fixed-size records, so a float32 column of a file whose rows are whole words is a strided
// copy through a Float32Array view of the slice: no call and no conversion per sample (the
// row-by-row encoder, UdbfRows, made one call per value and cost most of an export's time).

const TWO_32 = 4294967296;

export class UdbfSlice {
  readonly rowBytes: number;
  private readonly types: readonly TypeCode[];
  /** Byte offset of each variable inside a row. */
  private readonly offsets: number[];
  private readonly baseUs: number;
  /** Rows are whole 32-bit words: float32 columns and the time words go through typed views. */
  private readonly words: boolean;
  /** Two buffers, filled in turn: one is encoded while the socket still sends the other. */
  private readonly ring: Buffer[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private f32: Float32Array = new Float32Array(0);
  private u32: Uint32Array = new Uint32Array(0);
  /** Per row: whether some variable has a value there (only kept when `track` is on). */
  private has = new Uint8Array(0);
  private track = false;
  private rows = 0;

  constructor(header: UdbfHeader, types: readonly TypeCode[]) {
    this.rowBytes = header.rowBytes;
    this.types = types;
    this.baseUs = header.baseMs * 1000;
    this.offsets = [];
    let at = 8;
    for (const t of types) {
      this.offsets.push(at);
      at += TYPE_SIZE[t]!;
    }
    this.words = this.rowBytes % 4 === 0;
  }

  /**
   * Starts a slice of `rows` rows in buffer `slot` (0 or 1) of the ring: what finish() hands out
   * stays valid until that slot is begun again, so the caller sends one slot's bytes while it
   * fills the other (reused: an answer makes no garbage per slice, which piled up as external
   * memory until V8 collected it — +60 MB of logger for a 14 h export).
   * `track`: rows where every variable is a gap are to be left out (finish() drops them).
   */
  begin(slot: 0 | 1, rows: number, track: boolean): void {
    const bytes = rows * this.rowBytes;
    let buf = this.ring[slot];
    if (!buf || buf.length < bytes) {
      // allocUnsafeSlow: a buffer of its own at offset 0 (word-aligned views), not a pool slice.
      buf = this.ring[slot] = Buffer.allocUnsafeSlow(bytes);
    }
    this.buf = buf;
    this.view = new DataView(buf.buffer, 0, bytes);
    if (this.words) {
      this.f32 = new Float32Array(buf.buffer, 0, bytes >> 2);
      this.u32 = new Uint32Array(buf.buffer, 0, bytes >> 2);
    }
    this.track = track;
    if (track) {
      if (this.has.length < rows) this.has = new Uint8Array(rows);
      else this.has.fill(0, 0, rows);
    }
    this.rows = rows;
  }

  /** Row k's time: firstUs + k × stepUs (epoch µs, whole numbers, not before the header's base). */
  times(firstUs: number, stepUs: number): void {
    let [hi, lo] = nanos(firstUs - this.baseUs);
    const stepNs = stepUs * 1000;
    const stepHi = Math.floor(stepNs / TWO_32);
    const stepLo = stepNs - stepHi * TWO_32;
    const n = this.rows;
    if (this.words) {
      const u32 = this.u32;
      const stride = this.rowBytes >> 2;
      for (let k = 0, w = 0; k < n; k++, w += stride) {
        u32[w] = lo;
        u32[w + 1] = hi;
        lo += stepLo;
        hi += stepHi;
        if (lo >= TWO_32) (lo -= TWO_32), hi++;
      }
      return;
    }
    const view = this.view;
    for (let k = 0, p = 0; k < n; k++, p += this.rowBytes) {
      view.setUint32(p, lo, true);
      view.setUint32(p + 4, hi, true);
      lo += stepLo;
      hi += stepHi;
      if (lo >= TWO_32) (lo -= TWO_32), hi++;
    }
  }

  /** Variable i of rows at, at + 1, … from src[from], src[from + 1], … up to src[to - 1]. */
  put(i: number, at: number, src: ArrayLike<number>, from: number, to: number): void {
    const t = this.types[i]!;
    const off = this.offsets[i]!;
    const has = this.track ? this.has : null;
    if (t === TYPE.f32 && this.words) {
      const f32 = this.f32;
      const stride = this.rowBytes >> 2;
      let w = (at * this.rowBytes + off) >> 2;
      if (has) {
        for (let j = from, k = at; j < to; j++, k++, w += stride) {
          const v = src[j]!;
          f32[w] = v;
          if (v === v) has[k] = 1;
        }
      } else {
        for (let j = from; j < to; j++, w += stride) f32[w] = src[j]!;
      }
      return;
    }
    const view = this.view;
    let p = at * this.rowBytes + off;
    for (let j = from, k = at; j < to; j++, k++, p += this.rowBytes) {
      const v = src[j]!;
      if (t === TYPE.f32) view.setFloat32(p, v, true);
      else if (t === TYPE.f64) view.setFloat64(p, v, true);
      else writeValue(view, p, t, v);
      if (has && v === v) has[k] = 1;
    }
  }

  /** Variable i has no value on rows [at, at + n): NaN (gaps are only asked of float types). */
  gap(i: number, at: number, n: number): void {
    if (n <= 0) return;
    const t = this.types[i]!;
    const off = this.offsets[i]!;
    if (t === TYPE.f32 && this.words) {
      const stride = this.rowBytes >> 2;
      for (let k = 0, w = (at * this.rowBytes + off) >> 2; k < n; k++, w += stride) this.f32[w] = Number.NaN;
      return;
    }
    for (let k = 0, p = at * this.rowBytes + off; k < n; k++, p += this.rowBytes) {
      if (t === TYPE.f64) this.view.setFloat64(p, Number.NaN, true);
      else if (t === TYPE.f32) this.view.setFloat32(p, Number.NaN, true);
      else writeValue(this.view, p, t, Number.NaN);
    }
  }

  /** The slice's bytes (rows where no variable had a value left out when tracked). */
  finish(): Buffer {
    const size = this.rowBytes;
    if (!this.track) return this.buf.subarray(0, this.rows * size);
    const has = this.has;
    let kept = 0;
    for (let k = 0; k < this.rows; ) {
      if (!has[k]) {
        k++;
        continue;
      }
      // A run of rows with values moves down in one copy.
      let e = k + 1;
      while (e < this.rows && has[e]) e++;
      if (kept !== k) this.buf.copyWithin(kept * size, k * size, e * size);
      kept += e - k;
      k = e;
    }
    return this.buf.subarray(0, kept * size);
  }
}
