import type { LiveValues } from "../model/live.ts";
import type { Device, Model, Variable } from "../model/types.ts";
import type { SampleListener } from "../sim/simulator.ts";
import type { Db } from "../store/db.ts";
import type { SeriesStore } from "../store/series/store.ts";
import { DEVICE_TYPES, deviceIdOf, moduleIdOf, sourceIdOf } from "./config.ts";
import type { ConnectionState, DataSource, Protocol, SourceState } from "./config.ts";
import type { Driver, DriverFactory } from "./driver.ts";
import { problemOf, problemText } from "./problems.ts";
import { loadSources } from "./stored.ts";

// Runs the configured data sources (decision 0010): each is a device of the model with one
// source; its driver's values are put on the source's grid (slot floor(t / PeriodMs), the last
// value within a slot wins) and, once a slot is over, appended to the store and handed to the
// alarm engine and the WebSocket like the simulator's samples.

const TICK_MS = 50;
const MINUTE_MS = 60_000;
// OPC UA's sample-and-hold fills at most this much after a stall (a suspended machine).
const MAX_HOLD_FILL_MS = 60_000;
// A run of missing slots longer than this is left as a gap instead of being written as NaN.
const MAX_NAN_RUN = 64;
const RETENTION_SEC = 90 * 86400;

type Level = "info" | "warn" | "error";

type VarRun = {
  id: string;
  /** The slot being collected (-1: none) and its latest value. */
  open: number;
  openValue: number;
  /** Finished slots not yet stored: slot, value, slot, value… ascending. */
  closed: number[];
  /** The next slot the store takes for this variable. */
  end: number;
  /** OPC UA: the value held in slots without a change (null: nothing to hold, a gap). */
  held: number | null;
  liveSlot: number;
};

type Run = {
  config: DataSource;
  driver: Driver | null;
  periodMs: number;
  vars: VarRun[];
  state: ConnectionState;
  lastError: string;
  lastValueTime: number | null;
  values: number;
  errors: number;
  since: number;
  /** Bad values not yet logged (logged at most once a minute). */
  badUnlogged: number;
  badLastReason: string;
  badLoggedAt: number;
  /** OPC UA with security: the fingerprint of the certificate the server presented last. */
  fingerprint: string | null;
};

export type SourceManagerOptions = {
  db: Db;
  store: SeriesStore;
  live: LiveValues;
  model: Model;
  now: () => number;
  /** Connection changes and bad values (the trace log, component "datasource"). */
  log: (level: Level, message: string) => void;
  /** Whether the project acquires (Project State start/stop). */
  running: boolean;
  factories?: Partial<Record<Protocol, DriverFactory>>;
  tickMs?: number;
};

export class SourceManager {
  private readonly o: SourceManagerOptions;
  private readonly runs = new Map<number, Run>();
  private readonly byVariable = new Map<string, { run: Run; index: number }>();
  private readonly factories: Partial<Record<Protocol, DriverFactory>>;
  private timer: NodeJS.Timeout | null = null;
  private running: boolean;
  private liveDirty = false;
  private closed = false;
  /** Every stored sample of a data source (the alarm engine and the WebSocket). */
  onSamples: SampleListener | null = null;

  constructor(o: SourceManagerOptions) {
    this.o = o;
    this.running = o.running;
    this.factories = { ...o.factories };
  }

  /** Adds (or replaces) the driver of a protocol; sources of it started later use it. */
  register(protocol: Protocol, factory: DriverFactory): void {
    this.factories[protocol] = factory;
  }

  /** Loads the stored sources into the model and connects the enabled ones. */
  async start(): Promise<void> {
    for (const s of await loadSources(this.o.db, (m) => this.o.log("error", m))) {
      try {
        this.apply(s);
      } catch (err) {
        // One source that cannot be set up must not keep the logger (and the others) from starting.
        this.o.log("error", `Data source ${s.Name} not started: ${(err as Error).message}`);
      }
    }
    this.timer ??= setInterval(() => this.tick(), this.o.tickMs ?? TICK_MS);
  }

  count(): number {
    return this.runs.size;
  }

  config(id: number): DataSource | undefined {
    return this.runs.get(id)?.config;
  }

  // ---- configuration ----

  /** Puts a stored source into the model and the store and (re)starts its driver. */
  update(s: DataSource): Promise<void> {
    return this.serial(async () => {
      const old = this.runs.get(s.ID);
      if (old) await this.stopDriver(old);
      this.apply(s);
    });
  }

  // Changes apply one after the other, in the order they were stored: two quick edits of one
  // source must not end with the older one running because its driver took longer to stop.
  private chain: Promise<void> = Promise.resolve();
  private serial(fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => {});
    return next;
  }

  private apply(s: DataSource): void {
    const now = this.o.now();
    const old = this.runs.get(s.ID);
    if (old) {
      this.tickRun(old, now);
      for (const v of old.vars) this.byVariable.delete(v.id);
    }
    const sourceId = sourceIdOf(s.ID);
    const periodUs = s.PeriodMs * 1000;
    const stored = this.o.store.source(sourceId);
    if (stored && stored.PeriodUs !== periodUs) this.o.store.changePeriod(sourceId, periodUs, now * 1000);
    this.o.store.defineSource({ Id: sourceId, Name: s.Name, PeriodUs: periodUs, RetentionSec: stored ? undefined : RETENTION_SEC });
    this.syncModel(s);
    const run: Run = old ?? {
      config: s, driver: null, periodMs: s.PeriodMs, vars: [], state: "disabled", lastError: "", lastValueTime: null,
      values: 0, errors: 0, since: now, badUnlogged: 0, badLastReason: "", badLoggedAt: 0, fingerprint: null,
    };
    // On the same grid a kept variable keeps what it is collecting (its open slot, its held value).
    const kept = new Map(old && old.periodMs === s.PeriodMs ? old.vars.map((v) => [v.id, v]) : []);
    run.config = s;
    run.periodMs = s.PeriodMs;
    run.vars = s.Variables.map((v, index) => {
      const sv = this.o.store.defineVariable({ Id: v.VariableId, SourceId: sourceId, Name: v.Name, Unit: v.Unit });
      this.byVariable.set(v.VariableId, { run, index });
      const had = kept.get(v.VariableId);
      if (had) return had;
      const vs = this.o.store.seriesOf(sv);
      return { id: v.VariableId, open: -1, openValue: 0, closed: [], end: Math.max(vs.end, vs.floor), held: null, liveSlot: -1 };
    });
    this.runs.set(s.ID, run);
    this.o.live.commit(now);
    if (s.Enabled) this.startDriver(run);
    else {
      this.setState(run, "disabled");
      for (const v of run.vars) this.o.live.set(v.id, null, now);
      this.o.live.commit(now);
    }
  }

  /** Takes a source out of the model (its history stays in the store) and disconnects it. */
  remove(id: number): Promise<void> {
    return this.serial(() => this.removeNow(id));
  }

  private async removeNow(id: number): Promise<void> {
    const run = this.runs.get(id);
    if (!run) return;
    await this.stopDriver(run);
    this.tickRun(run, this.o.now());
    this.runs.delete(id);
    for (const v of run.vars) {
      this.byVariable.delete(v.id);
      this.o.live.set(v.id, null, this.o.now());
    }
    const m = this.o.model;
    const deviceId = deviceIdOf(id);
    removeWhere(m.variables, (v) => v.DeviceId === deviceId);
    removeWhere(m.sources, (x) => x.DeviceId === deviceId);
    removeWhere(m.devices, (d) => d.ID === deviceId);
    this.o.live.commit(this.o.now());
  }

  private syncModel(s: DataSource): void {
    const m = this.o.model;
    const deviceId = deviceIdOf(s.ID);
    const sourceId = sourceIdOf(s.ID);
    const moduleId = moduleIdOf(s.ID);
    const rateHz = 1000 / s.PeriodMs;
    let device = m.devices.find((d) => d.ID === deviceId);
    if (!device) {
      device = { ID: deviceId, Name: s.Name, Type: "", Serial: "", Firmware: "", IPAddress: "", Location: null, SourceId: sourceId, SampleRateHz: rateHz, Modules: [] };
      m.devices.push(device);
    }
    Object.assign(device, { Name: s.Name, Type: DEVICE_TYPES[s.Protocol], IPAddress: hostOf(s), SampleRateHz: rateHz } satisfies Partial<Device>);
    device.Modules = [{ ID: moduleId, Name: s.Name, Type: DEVICE_TYPES[s.Protocol], Variables: s.Variables.map((v) => v.VariableId) }];
    let source = m.sources.find((x) => x.Id === sourceId);
    if (!source) {
      source = { Id: sourceId, Name: s.Name, PeriodUs: s.PeriodMs * 1000, DeviceId: deviceId, Variables: [] };
      m.sources.push(source);
    }
    source.Name = s.Name;
    source.PeriodUs = s.PeriodMs * 1000;
    source.Variables = s.Variables.map((v) => v.VariableId);
    const keep = new Set(source.Variables);
    removeWhere(m.variables, (v) => v.DeviceId === deviceId && !keep.has(v.Id));
    s.Variables.forEach((c, Index) => {
      const boolean = s.Protocol === "modbus" && (c.Address as { Register: string }).Register.match(/^(coil|discrete)$/) !== null;
      const fields: Variable = {
        Id: c.VariableId, Name: c.Name, Unit: c.Unit, DataFormat: boolean ? "BOOL" : "FLOAT", Direction: c.Direction, Index,
        Precision: c.Precision, RangeMin: c.RangeMin, RangeMax: c.RangeMax, DeviceId: deviceId, ModuleId: moduleId, SourceId: sourceId, SampleRateHz: rateHz,
      };
      const v = m.variables.find((x) => x.Id === c.VariableId);
      if (v) Object.assign(v, fields);
      else m.variables.push(fields);
    });
  }

  // ---- drivers ----

  private startDriver(run: Run): void {
    // A change that was still being applied when the logger closed connects nothing.
    if (this.closed) return;
    const s = run.config;
    const factory = this.factories[s.Protocol];
    if (!factory) {
      this.setState(run, "error", problemText("noDriver", { protocol: s.Protocol }));
      return;
    }
    const events = {
      value: (index: number, value: number, timeMs: number) => {
        if (run.driver === driver) this.onValue(run, index, value, timeMs);
      },
      bad: (index: number | null, reason: string) => {
        if (run.driver === driver) this.onBad(run, index, reason);
      },
      state: (state: "connecting" | "connected" | "error", error?: string) => {
        if (run.driver === driver) this.setState(run, state, error);
      },
      certificate: (fingerprint: string) => {
        if (run.driver === driver) run.fingerprint = fingerprint;
      },
    };
    let driver: Driver | null = null;
    this.setState(run, "connecting");
    try {
      driver = factory(s, events, { now: this.o.now });
      run.driver = driver;
      driver.start();
    } catch (err) {
      // A driver must not throw, but a bad one must not take the logger down either.
      run.driver = null;
      this.setState(run, "error", (err as Error).message);
    }
  }

  private async stopDriver(run: Run): Promise<void> {
    const d = run.driver;
    run.driver = null;
    if (!d) return;
    try {
      await d.stop();
    } catch (err) {
      this.o.log("warn", `${run.config.Name}: disconnecting failed: ${(err as Error).message}`);
    }
  }

  private setState(run: Run, state: ConnectionState, error = ""): void {
    const now = this.o.now();
    const was = run.state;
    // A new error text while in error replaces LastError without a new log line (a device that
    // keeps failing is logged once per outage, not once per retry).
    if (state === "error") run.lastError = error || "Unknown error";
    if (state === "connected") run.lastError = "";
    if (was === state) return;
    if (state !== "connected") {
      // A lost connection is a gap: finished slots are stored, nothing is held across it.
      this.tickRun(run, now);
      for (const v of run.vars) v.held = null;
    }
    run.state = state;
    run.since = now;
    const name = run.config.Name;
    if (state === "connected") this.o.log("info", `${name}: connected`);
    else if (state === "error") this.o.log(was === "error" ? "info" : "warn", `${name}: connection error: ${run.lastError}`);
    else if (state === "disabled") this.o.log("info", `${name}: disabled`);
    else if (was === "connected") this.o.log("warn", `${name}: disconnected, reconnecting`);
  }

  private onBad(run: Run, index: number | null, reason: string): void {
    run.errors++;
    run.badUnlogged++;
    const name = run.config.Name;
    run.badLastReason = index !== null && run.config.Variables[index] ? `${run.config.Variables[index]!.Name}: ${reason}` : reason;
    const now = this.o.now();
    if (now - run.badLoggedAt >= MINUTE_MS) this.logBad(run, now, name);
  }

  private logBad(run: Run, now: number, name: string): void {
    if (run.badUnlogged === 0) return;
    const n = run.badUnlogged;
    this.o.log("warn", `${name}: ${n} bad value${n === 1 ? "" : "s"} not stored (last: ${run.badLastReason})`);
    run.badUnlogged = 0;
    run.badLoggedAt = now;
  }

  private onValue(run: Run, index: number, value: number, timeMs: number): void {
    const vr = run.vars[index];
    if (!vr) return this.onBad(run, null, `value for unknown variable index ${index}`);
    if (!Number.isFinite(value)) return this.onBad(run, index, `not a finite number (${value})`);
    if (!Number.isFinite(timeMs)) return this.onBad(run, index, "timestamp is not a time");
    const now = this.o.now();
    if (timeMs > now + MINUTE_MS) return this.onBad(run, index, `timestamp ${new Date(timeMs).toISOString()} is more than a minute ahead`);
    run.values++;
    run.lastValueTime = now;
    if (!this.running) return;
    const slot = Math.floor(this.timeOf(run, vr, timeMs, now) / run.periodMs);
    if (slot === vr.open) {
      vr.openValue = value;
    } else if (slot > vr.open && slot >= vr.end) {
      if (vr.open >= 0) vr.closed.push(vr.open, vr.openValue);
      vr.open = slot;
      vr.openValue = value;
    } else {
      // Older than what is already collected: the store only grows forward.
      if (timeMs < now - MINUTE_MS) this.onBad(run, index, `timestamp ${new Date(timeMs).toISOString()} is more than a minute old`);
      return;
    }
    if (slot >= vr.liveSlot) {
      vr.liveSlot = slot;
      this.o.live.set(vr.id, value, slot * run.periodMs);
      this.liveDirty = true;
    }
  }

  /**
   * The time a value is filed at, one rule for every driver (decision 0010, "Samples on the
   * grid"): never in the future (a device clock a little ahead would otherwise fill slots before
   * their time, and what arrives in between would be dropped as older), and for a held source
   * (OPC UA while connected) never older than the hold has reached: the held value already fills
   * every slot up to the current one, so a change reported a publishing interval late, or a value
   * unchanged since before the connection, is the value from the first slot still open — never
   * before the connection itself (the outage stays a gap).
   */
  private timeOf(run: Run, vr: VarRun, timeMs: number, now: number): number {
    let t = Math.min(timeMs, now);
    if (holds(run)) t = Math.max(t, run.since, vr.end * run.periodMs);
    return t;
  }

  // ---- the grid ----

  tick(): void {
    const now = this.o.now();
    for (const run of this.runs.values()) {
      this.tickRun(run, now);
      if (run.badUnlogged > 0 && now - run.badLoggedAt >= MINUTE_MS) this.logBad(run, now, run.config.Name);
    }
    if (this.liveDirty) {
      this.liveDirty = false;
      this.o.live.commit(now);
    }
  }

  /** Stores the slots of a source that are over (and, for OPC UA, the held values up to now). */
  private tickRun(run: Run, now: number): void {
    if (!this.running) return;
    const p = run.periodMs;
    const nowSlot = Math.floor(now / p);
    const hold = holds(run);
    const holdFloor = nowSlot - Math.ceil(MAX_HOLD_FILL_MS / p);
    for (const vr of run.vars) {
      if (vr.open >= 0 && vr.open < nowSlot) {
        vr.closed.push(vr.open, vr.openValue);
        vr.open = -1;
      }
      const c = vr.closed;
      if (c.length === 0 && !(hold && vr.held !== null)) continue;
      // The slots to write: [from, to); a gap longer than MAX_NAN_RUN splits the write.
      let buf: number[] = [];
      let from = -1;
      const emit = () => {
        if (buf.length) this.store(vr, from, run.config.PeriodMs * 1000, Float32Array.from(buf));
        buf = [];
      };
      const put = (slot: number, value: number) => {
        if (slot < vr.end) return;
        if (buf.length && slot - (from + buf.length) > MAX_NAN_RUN) emit();
        if (!buf.length) from = slot;
        while (from + buf.length < slot) buf.push(hold && vr.held !== null ? vr.held : Number.NaN);
        buf.push(value);
      };
      for (let i = 0; i < c.length; i += 2) {
        if (hold && vr.held !== null) for (let s = Math.max(vr.end, from + buf.length, holdFloor); s < c[i]!; s++) put(s, vr.held);
        put(c[i]!, c[i + 1]!);
        vr.held = c[i + 1]!;
      }
      c.length = 0;
      if (hold && vr.held !== null) {
        const fillTo = vr.open >= 0 ? vr.open : nowSlot;
        for (let s = Math.max(vr.end, buf.length ? from + buf.length : vr.end, holdFloor); s < fillTo; s++) put(s, vr.held);
        if (fillTo - 1 > vr.liveSlot) {
          vr.liveSlot = fillTo - 1;
          this.o.live.set(vr.id, vr.held, vr.liveSlot * p);
          this.liveDirty = true;
        }
      }
      emit();
    }
  }

  private store(vr: VarRun, from: number, periodUs: number, values: Float32Array): void {
    this.o.store.append(vr.id, from, values);
    vr.end = from + values.length;
    this.onSamples?.(vr.id, from, periodUs, values);
  }

  // ---- project start/stop ----

  setRunning(running: boolean): void {
    if (running === this.running) return;
    const now = this.o.now();
    if (!running) this.tick();
    this.running = running;
    for (const run of this.runs.values()) {
      for (const vr of run.vars) {
        vr.open = -1;
        vr.closed.length = 0;
        // Held values do not fill the time the project stood still.
        vr.end = Math.max(vr.end, Math.floor(now / run.periodMs));
        vr.liveSlot = -1;
        if (!running) this.o.live.set(vr.id, null, now);
      }
    }
    this.o.live.commit(now);
  }

  // ---- outputs and status ----

  owns(variableId: string): boolean {
    return this.byVariable.has(variableId);
  }

  /** Writes an output through its source's driver; rejects with a readable Error. */
  async write(variableId: string, value: number): Promise<void> {
    const at = this.byVariable.get(variableId);
    if (!at) throw new Error(`Variable ${variableId} is not in a data source`);
    const { run, index } = at;
    const v = run.config.Variables[index]!;
    if (v.Direction === "I") throw new Error(`Variable ${v.Name} is an input; only outputs can be written`);
    if (!run.driver) throw new Error(`Data source ${run.config.Name} is ${run.config.Enabled ? "not connected" : "disabled"}`);
    try {
      await run.driver.write(index, value);
    } catch (err) {
      throw new Error(`Writing ${v.Name} to ${run.config.Name} failed: ${(err as Error).message}`);
    }
    if (v.Direction === "O") {
      // A pure output is not read back: its live value is what was written.
      const now = this.o.now();
      this.o.live.set(variableId, value, now);
      this.o.live.commit(now);
    }
  }

  deviceStatus(deviceId: string): { Connected: boolean; LastHeartbeat: number | null } | undefined {
    const m = /^ds(\d+)$/.exec(deviceId);
    const run = m ? this.runs.get(Number(m[1])) : undefined;
    if (!run) return undefined;
    const connected = run.state === "connected";
    return { Connected: connected, LastHeartbeat: run.lastValueTime ?? (connected ? run.since : null) };
  }

  states(): SourceState[] {
    return [...this.runs.values()].map((r) => ({
      ID: r.config.ID,
      Name: r.config.Name,
      Protocol: r.config.Protocol,
      DeviceId: deviceIdOf(r.config.ID),
      Enabled: r.config.Enabled,
      State: r.state,
      LastError: r.lastError,
      // The same problem as a stable code and arguments, for a console in another language.
      Problem: r.state === "error" && r.lastError ? problemOf(r.lastError) : null,
      LastValueTime: r.lastValueTime,
      Values: r.values,
      Errors: r.errors,
      Since: r.since,
      ServerFingerprint: r.fingerprint,
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.tick();
    await Promise.all([...this.runs.values()].map((r) => this.stopDriver(r)));
  }
}

/** Sample-and-hold (decision 0010): OPC UA reports changes only, so while its subscription is alive the last value stands in every slot. */
const holds = (run: Run) => run.config.Protocol === "opcua" && run.state === "connected";

function removeWhere<T>(list: T[], drop: (x: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (drop(list[i]!)) list.splice(i, 1);
}

function hostOf(s: DataSource): string {
  try {
    if (s.Protocol === "modbus") return s.Connection.Host;
    return new URL(s.Protocol === "mqtt" ? s.Connection.Url : s.Connection.Endpoint).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    return "";
  }
}
