import { DATA_FORMAT, TYPE_NAME } from "../../udbf/format.ts";
import { UdbfError, UdbfReader, directionName, isoUs, lossyType } from "../../udbf/reader.ts";
import type { UdbfBatch, UdbfInfo } from "../../udbf/reader.ts";
import { PlacementError } from "../../store/series/import.ts";
import type { ImportSpool, Placement } from "../../store/series/import.ts";
import type { StreamedImport } from "../../store/series/streamed-import.ts";
import type { ImportColumn } from "./import-csv.ts";

// The UDBF reader of an import session (docs/logger-api.md, "UDBF import"): bytes in any parts
// → rows on the store's grid. Each row goes to the sample of the grid nearest its time stamp
// (the family's files jitter by nanoseconds: …330000140, …340000136 ns); a jump of more than
// half a period leaves a gap (missing samples), never a row smeared over its neighbours. Two rows
// on one sample mean the rows are faster than the file's sample rate: refused, naming the byte.

/** Rows must lie in [1970, 2100): the store's row keys address sample indices below that. */
const MAX_US = Date.UTC(2100, 0, 1) * 1000;

export class UdbfImport {
  private readonly reader: UdbfReader;
  private readonly spool: ImportSpool;
  private slots = new Float64Array(0);
  private readonly given: number | null;
  periodUs = 0;
  private firstSlot = -1;
  private lastSlot = -1;
  private firstUs = 0;
  columns: ImportColumn[] = [];
  /** The store the rows go to as they arrive, if it takes them so (else the spool). */
  streamed: StreamedImport | null = null;
  private readonly stream: ((width: number, periodUs: number) => StreamedImport) | null;

  /**
   * periodUs: the session's SampleRate, else the file's. The rows go to the spool by columns, or
   * straight to the store when `stream` is given (a source the store holds nothing of).
   */
  constructor(periodUs: number | null, spool: ImportSpool, stream: ((width: number, periodUs: number) => StreamedImport) | null = null) {
    this.given = periodUs;
    this.spool = spool;
    this.stream = stream;
    this.reader = new UdbfReader(
      () => {},
      (info) => this.begin(info),
      (batch) => this.batch(batch),
    );
  }

  get rows(): number {
    return this.reader.rows;
  }
  /** Rows placed on the grid and kept (spooled or stored). */
  get placed(): number {
    return this.streamed ? this.streamed.rows : this.spool.rows;
  }
  get offset(): number {
    return this.reader.offset;
  }
  get info(): UdbfInfo | null {
    return this.reader.info;
  }

  push(bytes: Uint8Array): void {
    this.reader.push(bytes);
  }

  /** Decodes the rows still buffered: at the end of each part, so that it answers for its rows. */
  flush(): void {
    this.reader.flush();
  }

  end(): void {
    this.reader.end();
  }

  /** null, or a promise to wait for before pushing more (the store's packer is busy). */
  ready(): Promise<void> | null {
    return this.streamed?.ready() ?? null;
  }

  /** Deletes what went to the store already (a failed or abandoned import). */
  discard(): void {
    this.streamed?.discard();
  }

  private begin(info: UdbfInfo): void {
    const seen = new Map<string, number>();
    info.variables.forEach((v, i) => {
      const twice = seen.get(v.Name);
      if (twice !== undefined) throw new UdbfError(`variables ${twice + 1} and ${i + 1} are both named ${v.Name}`, info.dataOffset);
      if (v.Name.length > 200 || v.Unit.length > 50) throw new UdbfError(`variable ${i + 1}: names are limited to 200 characters, units to 50`, info.dataOffset);
      seen.set(v.Name, i);
    });
    this.columns = info.variables.map((v) => ({ Name: v.Name, Unit: v.Unit }));
    if (this.given !== null) this.periodUs = this.given;
    else {
      const period = 1e6 / info.sampleRateHz;
      this.periodUs = Math.round(period);
      if (this.periodUs < 1 || Math.abs(period - this.periodUs) > 1e-6) {
        throw new UdbfError(`sample rate ${info.sampleRateHz} Hz has no whole number of microseconds as its period, which the store needs (give SampleRate to choose another grid)`, info.rateOffset);
      }
    }
    if (this.stream && info.variables.length > 0) this.streamed = this.stream(info.variables.length, this.periodUs);
  }

  /** A batch of rows: each on its sample, checked, then spooled column by column. */
  private batch(b: UdbfBatch): void {
    const info = this.reader.info!;
    const p = this.periodUs;
    if (this.slots.length < b.rows) this.slots = new Float64Array(b.us.length);
    const slots = this.slots;
    let last = this.lastSlot;
    for (let i = 0; i < b.rows; i++) {
      const us = b.us[i]!;
      const row = b.first + i + 1;
      const offset = info.dataOffset + (row - 1) * info.rowBytes;
      if (us < 0 || us >= MAX_US) throw new UdbfError(`row ${row}'s time ${isoUs(us)} lies outside 1970–2099`, offset);
      const slot = Math.round(us / p);
      if (slot <= last) {
        throw new UdbfError(`row ${row} (${isoUs(us)}) falls on the same ${p / 1000} ms sample as the row before it: the rows are closer than the sample rate's period`, offset);
      }
      if (this.firstSlot < 0) (this.firstSlot = slot), (this.firstUs = us);
      slots[i] = last = slot;
    }
    this.lastSlot = last;
    if (this.streamed) this.streamed.add(slots, b.columns, b.rows);
    else this.spool.addColumns(slots, b.columns, b.rows);
  }

  /** Where the rows go; the first must not lie before what the source holds. */
  placement(storedEndUs: number): Placement {
    const p = this.periodUs;
    if (this.firstSlot * p < storedEndUs) {
      throw new PlacementError(`The rows start at ${isoUs(this.firstSlot * p)}, before the end of what the source already holds (${isoUs(storedEndUs)}); an import can only add after it`);
    }
    return { periodUs: p, g0: this.firstSlot, lastSlot: this.lastSlot, shiftUs: this.firstSlot * p - this.firstUs };
  }

  /** The file's facts for the measurement's metadata. */
  metaData(): { Key: string; Value: string }[] {
    const info = this.reader.info!;
    const lossy = info.variables.filter((v, i) => lossyType(v.DataType) && this.reader.inexact[i]).map((v) => v.Name);
    return [
      { Key: "UDBF vendor", Value: info.vendor },
      { Key: "UDBF sample rate", Value: `${info.sampleRateHz} Hz` },
      ...(lossy.length ? [{ Key: "Rounded to float32", Value: lossy.join(", ") }] : []),
    ];
  }

  /** What the file said of variable i, and whether float32 rounded any of its values. */
  variableFacts(i: number) {
    const v = this.reader.info!.variables[i]!;
    return {
      DataType: TYPE_NAME[v.DataType]!,
      DataFormat: DATA_FORMAT[v.DataType]!,
      Direction: directionName(v.Direction),
      Precision: v.Precision,
      Rounded: this.reader.inexact[i]!,
    };
  }
}
