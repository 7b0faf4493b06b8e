import type { LiveValues } from "../model/live.ts";
import type { SeriesStore } from "../store/series/store.ts";
import type { ResolvedSim } from "./options.ts";
import { buildRig } from "./rig.ts";
import type { Rig } from "./rig.ts";

// After a longer stall (a suspended laptop) the missed time is a gap, not a burst of catch-up.
const MAX_CATCH_UP_SEC = 60;
const BACKFILL_SLICE = 65536;

type SourceState = { id: string; periodUs: number; deviceId: string; vars: string[]; next: number; heartbeat: number | null; connected: boolean | null };

/** Live samples of one variable (the buffer is reused: read it before returning). */
export type SampleListener = (variableId: string, first: number, periodUs: number, values: Float32Array) => void;

/** Feeds the rig's samples into the store in batches aligned to wall-clock sample times. */
export class Simulator {
  readonly rig: Rig;
  private readonly o: ResolvedSim;
  private readonly store: SeriesStore;
  private readonly live: LiveValues;
  private readonly sources: SourceState[];
  private timer: NodeJS.Timeout | null = null;
  /** Devices whose source this data folder had never seen (their metadata gets seeded). */
  readonly newDevices: string[] = [];
  running = false;
  since = 0;
  /** Sees every live sample as it is acquired (the alarm engine). */
  onSamples: SampleListener | null = null;
  /** Reports what happens to the rig (the trace log). */
  onEvent: ((level: "info" | "warn", message: string) => void) | null = null;
  /** Channels switched off in the project config: they acquire nothing (a gap in history). */
  private readonly disabled = new Set<string>();

  constructor(o: ResolvedSim, store: SeriesStore, live: LiveValues) {
    this.o = o;
    this.store = store;
    this.live = live;
    this.rig = buildRig(o);
    const { model } = this.rig;
    for (const s of model.sources) {
      const existed = store.source(s.Id);
      if (!existed) this.newDevices.push(s.DeviceId);
      store.defineSource({ Id: s.Id, Name: s.Name, PeriodUs: s.PeriodUs, RetentionSec: existed ? undefined : o.retentionSec });
    }
    for (const v of model.variables) store.defineVariable({ Id: v.Id, SourceId: v.SourceId, Name: v.Name, Unit: v.Unit });
    this.sources = model.sources.map((s) => ({ id: s.Id, periodUs: s.PeriodUs, deviceId: s.DeviceId, vars: s.Variables, next: -1, heartbeat: null, connected: null }));
  }

  /** Starts the batch timer; `running` says whether samples are acquired or only heartbeats. */
  start(running: boolean, since: number): void {
    this.running = running;
    this.since = since;
    this.onEvent?.("info", `Simulated test rig online: ${this.rig.model.devices.length} devices, ${this.rig.model.variables.length} variables, acquisition ${running ? "running" : "stopped"}`);
    this.timer ??= setInterval(() => this.tick(), this.o.tickMs);
    this.tick();
  }

  setRunning(running: boolean): void {
    if (running === this.running) return;
    const now = this.o.now();
    this.running = running;
    this.since = now;
    this.onEvent?.("info", running ? "Acquisition started" : "Acquisition stopped");
    for (const s of this.sources) s.next = -1;
    if (!running) this.live.clear(now);
    this.tick();
  }

  /** Switches a channel's acquisition on or off; an off channel has no live value either. */
  setEnabled(id: string, enabled: boolean): void {
    if (enabled === !this.disabled.has(id)) return;
    if (enabled) {
      this.disabled.delete(id);
      return;
    }
    this.tick();
    this.disabled.add(id);
    const now = this.o.now();
    this.live.set(id, null, now);
    this.live.commit(now);
  }

  isEnabled(id: string): boolean {
    return !this.disabled.has(id);
  }

  /**
   * Changes a device's sample rate at once: what is due at the old rate is acquired first, the
   * store starts a new segment at the new period (docs/decisions/0008), and the signals are
   * rebuilt for it. Returns false when the rate is already the device's.
   */
  setRate(deviceId: string, rateHz: number): boolean {
    const s = this.sources.find((x) => x.deviceId === deviceId);
    if (!s) throw new Error(`Unknown device ${deviceId}`);
    const periodUs = 1e6 / rateHz;
    if (!Number.isInteger(periodUs) || periodUs < 1) throw new Error(`Sample rate ${rateHz} Hz: 1,000,000 / rate must be a whole number of microseconds`);
    if (periodUs === s.periodUs) return false;
    const before = 1e6 / s.periodUs;
    this.tick();
    this.store.changePeriod(s.id, periodUs, this.o.now() * 1000);
    this.rig.refill(deviceId, periodUs);
    s.periodUs = periodUs;
    s.next = -1;
    const name = this.rig.model.devices.find((d) => d.ID === deviceId)?.Name ?? deviceId;
    this.onEvent?.("info", `${name}: sample rate changed from ${before} Hz to ${rateHz} Hz`);
    this.tick();
    return true;
  }

  tick(): void {
    const now = this.o.now();
    let delivered = false;
    for (const s of this.sources) {
      const connected = this.rig.connectedAt(s.deviceId, now);
      if (connected !== s.connected) {
        const name = this.rig.model.devices.find((d) => d.ID === s.deviceId)?.Name ?? s.deviceId;
        if (s.connected !== null || !connected) this.onEvent?.(connected ? "info" : "warn", `${name} ${connected ? "connected" : "disconnected"}`);
        s.connected = connected;
      }
      if (!connected) continue;
      s.heartbeat = now;
      if (!this.running) continue;
      const end = Math.floor((now * 1000) / s.periodUs) + 1;
      const floor = end - Math.ceil((MAX_CATCH_UP_SEC * 1e6) / s.periodUs);
      if (s.next < 0) s.next = Math.max(this.storedEnd(s), end - 1);
      if (s.next < floor) s.next = floor;
      if (s.next >= end) continue;
      this.generate(s, s.next, end, true);
      s.next = end;
      delivered = true;
    }
    if (delivered) this.live.commit(now);
  }

  // Where the current segment's samples continue: the furthest any channel got (an off channel
  // lags behind), never before the segment's start.
  private storedEnd(s: SourceState): number {
    let end = -1;
    for (const id of s.vars) {
      const v = this.store.variable(id);
      if (!v) continue;
      const vs = this.store.seriesOf(v);
      end = Math.max(end, vs.end, vs.floor);
    }
    return end;
  }

  private generate(s: SourceState, from: number, to: number, live: boolean): void {
    const n = to - from;
    const buf = new Float32Array(n);
    const t = ((to - 1) * s.periodUs) / 1000;
    for (const id of s.vars) {
      if (this.disabled.has(id)) continue;
      this.rig.fills.get(id)!(buf, from, n);
      this.store.append(id, from, buf);
      if (live) {
        this.onSamples?.(id, from, s.periodUs, buf);
        const last = buf[n - 1]!;
        this.live.set(id, Number.isNaN(last) ? null : last, t);
      }
    }
  }

  /**
   * Generates `seconds` of history up to now straight into the store, in slices, yielding to
   * the event loop between them. Starts after what is already stored, so a rerun only adds.
   */
  async backfill(seconds: number, progress: (line: string) => void): Promise<number> {
    const started = performance.now();
    let total = 0;
    let lastReport = started;
    for (;;) {
      const now = this.o.now();
      let remaining = 0;
      let work = 0;
      for (const s of this.sources) {
        const end = Math.floor((now * 1000) / s.periodUs) + 1;
        const from = Math.max(this.storedEnd(s), Math.ceil(((now - seconds * 1000) * 1000) / s.periodUs));
        if (end - from <= 1) continue;
        const to = Math.min(end, from + BACKFILL_SLICE);
        this.generate(s, from, to, false);
        total += (to - from) * s.vars.length;
        work++;
        remaining = Math.max(remaining, ((end - to) * s.periodUs) / 1e6);
      }
      if (work === 0) break;
      if (performance.now() - lastReport > 2000) {
        lastReport = performance.now();
        const rate = total / ((lastReport - started) / 1000);
        progress(`backfill: ${(total / 1e6).toFixed(1)} M samples, ${(rate / 1e6).toFixed(1)} M/s, ${formatSec(remaining)} of history to go`);
      }
      await new Promise<void>((r) => setImmediate(r));
    }
    this.store.flush();
    progress(`backfill: done, ${(total / 1e6).toFixed(1)} M samples in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return total;
  }

  writeOutput(id: string, value: number): void {
    const out = this.rig.outputs.get(id);
    if (!out) throw new Error(`${id} is not an output`);
    out.value = value;
    const now = this.o.now();
    this.live.set(id, value, now);
    this.live.commit(now);
  }

  deviceStatus(deviceId: string): { Connected: boolean; LastHeartbeat: number | null } {
    const s = this.sources.find((x) => x.deviceId === deviceId);
    return { Connected: this.rig.connectedAt(deviceId, this.o.now()), LastHeartbeat: s?.heartbeat ?? null };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function formatSec(s: number): string {
  if (s >= 86400) return `${(s / 86400).toFixed(1)} d`;
  if (s >= 3600) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s)} s`;
}
