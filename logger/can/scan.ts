import type { CanFrame } from "./frame.ts";
import { SIM_MESSAGES, simFrame } from "./simbus.ts";

// A scan: per CAN ID the DLC, how many frames were seen, the rate over a recent window, the
// last payload and which of its bytes changed within that window.

export const SCAN_WINDOW_MS = 2000;

export type ScanRow = { id: number; ext: boolean; dlc: number; count: number; rateHz: number | null; last: Uint8Array; changed: boolean[]; lastT: number };

/** Summarises one ID's frames in time order; `recent` are those inside the window (≥ 1). */
function row(recent: CanFrame[], before: CanFrame | undefined, count: number): ScanRow {
  const last = recent.at(-1)!;
  const changed = Array.from(last.data, () => false);
  let prev = before;
  for (const f of recent) {
    if (prev) for (let i = 0; i < f.data.length; i++) if (f.data[i] !== prev.data[i]) changed[i] = true;
    prev = f;
  }
  const span = last.t - recent[0]!.t;
  const rateHz = recent.length >= 2 && span > 0 ? ((recent.length - 1) * 1000) / span : null;
  return { id: last.id, ext: last.ext, dlc: last.data.length, count, rateHz, last: last.data, changed, lastT: last.t };
}

const byId = (a: ScanRow, b: ScanRow) => Number(a.ext) - Number(b.ext) || a.id - b.id;

/** Scan of the simulated bus between `sinceMs` and `nowMs` (recomputed, nothing is kept). */
export function scanSimulation(seed: number, sinceMs: number, nowMs: number): ScanRow[] {
  const rows: ScanRow[] = [];
  for (const m of SIM_MESSAGES) {
    const kNow = Math.floor(nowMs / m.periodMs);
    const kSince = Math.ceil(sinceMs / m.periodMs);
    if (kNow < kSince) continue;
    const kFirst = Math.max(kSince, kNow - Math.floor(SCAN_WINDOW_MS / m.periodMs) + 1);
    const recent: CanFrame[] = [];
    for (let k = kFirst; k <= kNow; k++) recent.push(simFrame(seed, m, k));
    rows.push(row(recent, kFirst > kSince ? simFrame(seed, m, kFirst - 1) : undefined, kNow - kSince + 1));
  }
  return rows.sort(byId);
}

/** Scan of a whole capture; its window ends at the capture's last frame. */
export function scanCapture(frames: readonly CanFrame[]): ScanRow[] {
  const groups = new Map<string, CanFrame[]>();
  for (const f of frames) {
    const key = `${f.ext ? "x" : "s"}${f.id}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  const end = frames.reduce((t, f) => Math.max(t, f.t), Number.NEGATIVE_INFINITY);
  const rows: ScanRow[] = [];
  for (const g of groups.values()) {
    g.sort((a, b) => a.t - b.t);
    let first = g.findIndex((f) => f.t > end - SCAN_WINDOW_MS);
    if (first < 0) first = g.length - 1;
    rows.push(row(g.slice(first), g[first - 1], g.length));
  }
  return rows.sort(byId);
}

/** The last frame of each ID in a capture (what decoding shows for a capture). */
export function lastFrames(frames: readonly CanFrame[]): Map<string, CanFrame> {
  const out = new Map<string, CanFrame>();
  for (const f of frames) {
    const key = frameKey(f.id, f.ext);
    const seen = out.get(key);
    if (!seen || seen.t <= f.t) out.set(key, f);
  }
  return out;
}

export const frameKey = (id: number, ext: boolean) => `${ext ? "x" : "s"}${id}`;
