import { smooth, uniform } from "../sim/prng.ts";
import type { CanFrame } from "./frame.ts";

// The simulated CAN bus of the test rig: a few periodic frames whose payload depends only on
// (seed, frame number), so any moment of the bus can be recomputed (scan, decoding, history)
// without keeping frames. docs/can/simulated-bus.dbc describes these frames.

export type SimMessage = { id: number; ext: boolean; name: string; periodMs: number; dlc: number; payload: (seed: number, k: number) => Uint8Array };

const u16le = (out: Uint8Array, at: number, v: number) => {
  out[at] = v & 0xff;
  out[at + 1] = (v >> 8) & 0xff;
};
const u16be = (out: Uint8Array, at: number, v: number) => {
  out[at] = (v >> 8) & 0xff;
  out[at + 1] = v & 0xff;
};
const clampInt = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));

export const SIM_MESSAGES: readonly SimMessage[] = [
  {
    // RPM 0.25 rpm/bit (LE, bytes 0–1), throttle 0.4 %/bit (byte 2), torque 0.1 Nm/bit signed
    // (LE, bytes 3–4); bytes 5–7 are constant.
    id: 0x0c0, ext: false, name: "EngineData", periodMs: 10, dlc: 8,
    payload: (seed, k) => {
      const out = new Uint8Array([0, 0, 0, 0, 0, 0x00, 0xa5, 0xff]);
      const load = smooth(seed, 0xca01, k, 400);
      u16le(out, 0, clampInt((2400 + 900 * load + 40 * smooth(seed, 0xca02, k, 17)) * 4, 0, 0xffff));
      out[2] = clampInt((35 + 30 * load) / 0.4, 0, 250);
      u16le(out, 3, clampInt((180 + 140 * load) * 10, -32768, 32767) & 0xffff);
      return out;
    },
  },
  {
    // Four wheel speeds, 0.01 km/h per bit, big-endian (Motorola) 16-bit each.
    id: 0x1a0, ext: false, name: "WheelSpeeds", periodMs: 20, dlc: 8,
    payload: (seed, k) => {
      const out = new Uint8Array(8);
      const base = 62 + 18 * smooth(seed, 0xca10, k, 500);
      for (let w = 0; w < 4; w++) u16be(out, w * 2, clampInt((base + 0.6 * smooth(seed, 0xca11 + w, k, 25)) * 100, 0, 0xffff));
      return out;
    },
  },
  {
    // Coolant, oil and intake air temperature, 1 °C per bit, offset −40; byte 3 constant.
    id: 0x2f0, ext: false, name: "Temperatures", periodMs: 100, dlc: 4,
    payload: (seed, k) =>
      new Uint8Array([
        clampInt(88 + 3 * smooth(seed, 0xca20, k, 300) + 40, 0, 255),
        clampInt(96 + 4 * smooth(seed, 0xca21, k, 400) + 40, 0, 255),
        clampInt(24 + 2 * smooth(seed, 0xca22, k, 900) + 40, 0, 255),
        0x55,
      ]),
  },
  {
    // A rolling counter (byte 0) and a status bitfield (byte 1: engine running, fan,
    // check engine, door open) whose bits flip now and then.
    id: 0x3e8, ext: false, name: "Status", periodMs: 100, dlc: 2,
    payload: (seed, k) => {
      const slot = Math.floor(k / 50);
      const bits = 0b1 | (uniform(seed, 0xca30, slot) < 0.6 ? 0b10 : 0) | (uniform(seed, 0xca31, slot) < 0.05 ? 0b100 : 0) | (uniform(seed, 0xca32, slot) < 0.2 ? 0b1000 : 0);
      return new Uint8Array([k & 0xff, bits]);
    },
  },
  {
    // A J1939-style extended frame that never changes (a heartbeat with a fixed identity).
    id: 0x18fef100, ext: true, name: "Heartbeat", periodMs: 100, dlc: 8,
    payload: () => new Uint8Array([0x01, 0x4c, 0x47, 0x47, 0x49, 0x41, 0x00, 0x00]),
  },
];

/** Frame number k of a message is sent at k × period ms (epoch time). */
export function simFrame(seed: number, m: SimMessage, k: number): CanFrame {
  return { t: k * m.periodMs, id: m.id, ext: m.ext, data: m.payload(seed, k) };
}

/** The last frame of a message sent at or before tMs. */
export function simFrameAt(seed: number, m: SimMessage, tMs: number): CanFrame {
  return simFrame(seed, m, Math.floor(tMs / m.periodMs));
}
