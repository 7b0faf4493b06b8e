import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LiveValues } from "../model/live.ts";
import type { Device, Model, Module, Variable } from "../model/types.ts";
import { stableUuid } from "../sim/prng.ts";
import type { SeriesStore } from "../store/series/store.ts";
import { parseCapture } from "./capture.ts";
import { decodeSignal, parseDbc } from "./dbc.ts";
import type { Database, DbcMessage, DbcSignal } from "./dbc.ts";
import type { CanFrame } from "./frame.ts";
import { frameKey, lastFrames, scanCapture, scanSimulation } from "./scan.ts";
import type { ScanRow } from "./scan.ts";
import { SIM_MESSAGES, simFrameAt } from "./simbus.ts";

// The logger's CAN interface: what is scanned (the simulated bus or an uploaded capture), the
// DBC database that decodes it, and the signals chosen as logger variables. The database and
// the chosen signals live in DATA_DIR/can/ and survive a restart; a capture does not.

const PERIOD_US = 100_000;
const TICK_MS = 200;
const MAX_CATCH_UP_SEC = 60;

export type ScanSource =
  | { kind: "simulation"; since: number }
  | { kind: "capture"; fileName: string; format: string; frames: CanFrame[]; loadedAt: number }
  | { kind: "none" };

export type ChosenSignal = { message: string; signal: string; variableId: string };

export type DecodedSignal = { message: DbcMessage; signal: DbcSignal; raw: Uint8Array | null; value: number | null; variableId: string | null };

export class CanBus {
  private readonly dir: string;
  private readonly seed: number;
  private readonly now: () => number;
  private readonly store: SeriesStore;
  private readonly live: LiveValues;
  private readonly model: Model;
  private readonly simulated: boolean;
  private readonly acquiring: () => boolean;
  source: ScanSource;
  database: { fileName: string; db: Database; loadedAt: number } | null = null;
  chosen: ChosenSignal[] = [];
  private captureLast = new Map<string, CanFrame>();
  private next = -1;
  private timer: NodeJS.Timeout | null = null;

  constructor(o: {
    dataDir: string;
    seed: number;
    now: () => number;
    store: SeriesStore;
    live: LiveValues;
    model: Model;
    /** Whether the simulated bus runs (the test rig simulator is on). */
    simulated: boolean;
    /** Whether acquisition runs (Project State start/stop). */
    acquiring: () => boolean;
    onError?: (message: string) => void;
  }) {
    this.dir = join(o.dataDir, "can");
    this.seed = o.seed;
    this.now = o.now;
    this.store = o.store;
    this.live = o.live;
    this.model = o.model;
    this.simulated = o.simulated;
    this.acquiring = o.acquiring;
    this.source = o.simulated ? { kind: "simulation", since: o.now() } : { kind: "none" };
    mkdirSync(this.dir, { recursive: true });
    try {
      this.restore();
    } catch (err) {
      // A damaged state file must not keep the logger from starting; the scanner starts empty.
      o.onError?.(`CAN state in ${this.dir} not restored: ${(err as Error).message}`);
      this.database = null;
    }
  }

  // ---- persistence ----

  private restore(): void {
    const dbcPath = join(this.dir, "database.dbc");
    const metaPath = join(this.dir, "state.json");
    if (!existsSync(metaPath)) return;
    const meta = JSON.parse(readFileSync(metaPath, "utf8")) as { fileName?: string; loadedAt?: number; chosen?: ChosenSignal[] };
    if (meta.fileName && existsSync(dbcPath)) {
      this.database = { fileName: meta.fileName, db: parseDbc(readFileSync(dbcPath, "utf8")), loadedAt: meta.loadedAt ?? 0 };
    }
    this.chosen = meta.chosen ?? [];
    for (const c of this.chosen) this.defineVariable(c);
  }

  private save(dbcText?: string): void {
    if (dbcText !== undefined) writeAtomic(join(this.dir, "database.dbc"), dbcText);
    const meta = { fileName: this.database?.fileName ?? null, loadedAt: this.database?.loadedAt ?? null, chosen: this.chosen };
    writeAtomic(join(this.dir, "state.json"), JSON.stringify(meta, null, 2));
  }

  // ---- scan source ----

  /** Parses and scans a capture; throws CanFileError (with the line) when it is malformed. */
  loadCapture(fileName: string, text: string): ScanSource {
    const capture = parseCapture(text);
    this.source = { kind: "capture", fileName, format: capture.format, frames: capture.frames, loadedAt: this.now() };
    this.captureLast = lastFrames(capture.frames);
    return this.source;
  }

  useSimulation(): ScanSource {
    this.source = this.simulated ? { kind: "simulation", since: this.now() } : { kind: "none" };
    this.captureLast.clear();
    return this.source;
  }

  scan(): { rows: ScanRow[]; at: number } {
    const s = this.source;
    if (s.kind === "simulation") {
      const now = this.now();
      return { rows: scanSimulation(this.seed, s.since, now), at: now };
    }
    if (s.kind === "capture") return { rows: scanCapture(s.frames), at: s.frames.reduce((t, f) => Math.max(t, f.t), 0) };
    return { rows: [], at: this.now() };
  }

  /** The frame decoding shows for an ID: the latest one of the source. */
  private frameOf(m: DbcMessage, tMs: number): CanFrame | undefined {
    if (this.source.kind === "capture") return this.captureLast.get(frameKey(m.id, m.ext));
    if (this.source.kind === "simulation") {
      const sm = SIM_MESSAGES.find((x) => x.id === m.id && x.ext === m.ext);
      return sm ? simFrameAt(this.seed, sm, tMs) : undefined;
    }
    return undefined;
  }

  // ---- database and decoding ----

  /** Parses a DBC file and keeps it; throws CanFileError (with the line) when it is malformed. */
  loadDatabase(fileName: string, text: string): Database {
    const db = parseDbc(text);
    this.database = { fileName, db, loadedAt: this.now() };
    this.save(text);
    return db;
  }

  removeDatabase(): void {
    this.database = null;
    rmSync(join(this.dir, "database.dbc"), { force: true });
    this.save();
  }

  /** Every signal of the database with its value from the current source. */
  decode(): DecodedSignal[] {
    if (!this.database) return [];
    const now = this.now();
    const out: DecodedSignal[] = [];
    for (const m of this.database.db.messages) {
      const frame = this.frameOf(m, now);
      for (const s of m.signals) {
        const c = this.chosen.find((x) => x.message === m.name && x.signal === s.name);
        out.push({ message: m, signal: s, raw: frame?.data ?? null, value: frame ? decodeSignal(s, frame.data) : null, variableId: c?.variableId ?? null });
      }
    }
    return out;
  }

  // ---- signals as logger variables ----

  private ids() {
    const id = (name: string) => stableUuid(this.seed, name);
    return { device: id("device:can"), source: id("source:can"), module: id("module:can-signals") };
  }

  private ensureDevice(): { device: Device; module: Module } {
    const ids = this.ids();
    let device = this.model.devices.find((d) => d.ID === ids.device);
    if (!device) {
      device = {
        ID: ids.device, Name: "CAN bus", Type: "CANInterface", Serial: "can0", Firmware: "1.0.0", IPAddress: "",
        Location: { Lat: 44.6471, Lon: 10.9252 }, SourceId: ids.source, SampleRateHz: 1e6 / PERIOD_US,
        Modules: [{ ID: ids.module, Name: "Decoded signals", Type: "CAN", Variables: [] }],
      };
      this.model.devices.push(device);
      this.model.sources.push({ Id: ids.source, Name: "CAN bus", PeriodUs: PERIOD_US, DeviceId: ids.device, Variables: [] });
      // Like the simulated sources: 90 days unless changed (Project State) since.
      this.store.defineSource({ Id: ids.source, Name: "CAN bus", PeriodUs: PERIOD_US, RetentionSec: this.store.source(ids.source) ? undefined : 90 * 86400 });
    }
    return { device, module: device.Modules[0]! };
  }

  private defineVariable(c: ChosenSignal, s?: DbcSignal): Variable {
    const existing = this.model.variables.find((v) => v.Id === c.variableId);
    if (existing) return existing;
    const { device, module } = this.ensureDevice();
    const signal = s ?? this.database?.db.messages.find((m) => m.name === c.message)?.signals.find((x) => x.name === c.signal);
    const v: Variable = {
      Id: c.variableId,
      Name: `${c.message}.${c.signal}`,
      Unit: signal?.unit ?? "",
      DataFormat: "FLOAT",
      Direction: "I",
      Index: this.model.variables.length,
      Precision: signal ? decimals(signal.factor) : 2,
      RangeMin: signal?.min ?? 0,
      RangeMax: signal && signal.max > signal.min ? signal.max : signal ? signal.min + 1 : 1,
      DeviceId: device.ID,
      ModuleId: module.ID,
      SourceId: device.SourceId,
      SampleRateHz: 1e6 / PERIOD_US,
    };
    this.model.variables.push(v);
    module.Variables.push(v.Id);
    this.model.sources.find((x) => x.Id === device.SourceId)!.Variables.push(v.Id);
    this.store.defineVariable({ Id: v.Id, SourceId: v.SourceId, Name: v.Name, Unit: v.Unit });
    return v;
  }

  /** Adds a database signal as a logger variable (or returns the one it already is). */
  addVariable(messageName: string, signalName: string): { variable: Variable; created: boolean } | null {
    const m = this.database?.db.messages.find((x) => x.name === messageName);
    const s = m?.signals.find((x) => x.name === signalName);
    if (!m || !s) return null;
    const had = this.chosen.find((c) => c.message === m.name && c.signal === s.name);
    if (had) return { variable: this.defineVariable(had, s), created: false };
    const c: ChosenSignal = { message: m.name, signal: s.name, variableId: stableUuid(this.seed, `variable:can/${m.name}/${s.name}`) };
    this.chosen.push(c);
    const variable = this.defineVariable(c, s);
    this.save();
    this.tick();
    return { variable, created: true };
  }

  // ---- feeding the chosen signals into the store ----

  start(): void {
    this.timer ??= setInterval(() => this.tick(), TICK_MS);
    this.tick();
  }

  tick(): void {
    if (this.chosen.length === 0) return;
    const now = this.now();
    if (!this.acquiring()) {
      this.next = -1;
      return;
    }
    const end = Math.floor((now * 1000) / PERIOD_US) + 1;
    const stored = this.store.variable(this.chosen[0]!.variableId);
    if (this.next < 0) this.next = Math.max(stored ? this.store.seriesOf(stored).end : -1, end - 1);
    this.next = Math.max(this.next, end - Math.ceil((MAX_CATCH_UP_SEC * 1e6) / PERIOD_US));
    if (this.next >= end) return;
    const n = end - this.next;
    const buf = new Float32Array(n);
    for (const c of this.chosen) {
      const m = this.database?.db.messages.find((x) => x.name === c.message);
      const s = m?.signals.find((x) => x.name === c.signal);
      for (let i = 0; i < n; i++) {
        const t = ((this.next + i) * PERIOD_US) / 1000;
        const frame = m && s ? this.frameOf(m, t) : undefined;
        buf[i] = frame && s ? (decodeSignal(s, frame.data) ?? Number.NaN) : Number.NaN;
      }
      // A variable added after others starts where they are.
      const v = this.store.variable(c.variableId);
      const from = v ? Math.max(this.next, this.store.seriesOf(v).end) : this.next;
      if (from < end) this.store.append(c.variableId, from, buf.subarray(from - this.next));
      const last = buf[n - 1]!;
      this.live.set(c.variableId, Number.isNaN(last) ? null : last, ((end - 1) * PERIOD_US) / 1000);
    }
    this.next = end;
    this.live.commit(now);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Decimals a value scaled by `factor` can have: those of the factor (0.25 → 2, 0.1 → 1). */
function decimals(factor: number): number {
  const [, frac = ""] = Math.abs(factor).toFixed(6).replace(/0+$/, "").split(".");
  return frac.length;
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}
