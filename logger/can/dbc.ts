import { Dbc } from "candied";
import { CanFileError, MAX_EXT_ID } from "./frame.ts";

// DBC files are parsed by candied (a maintained DBC parser). Two things are ours:
// * candied skips some malformed BO_/SG_ lines without an error, so those two are checked
//   line by line first (any other line is left to candied, which reports its line number);
// * decoding: candied 2.2 reads big-endian (Motorola, @0) signals from the wrong bits (it
//   treats the start bit as the end of the field), so signals are decoded by decodeSignal below.

export const MAX_DBC_BYTES = 2 * 1024 * 1024;

export type DbcSignal = {
  name: string;
  startBit: number;
  length: number;
  littleEndian: boolean;
  signed: boolean;
  factor: number;
  offset: number;
  min: number;
  max: number;
  unit: string;
};
export type DbcMessage = { id: number; ext: boolean; name: string; dlc: number; signals: DbcSignal[] };
export type Database = { messages: DbcMessage[] };

const NUM = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const BO = /^BO_\s+\d+\s+[A-Za-z_][\w]*\s*:\s*\d+\s+\S+\s*$/;
const SG = new RegExp(
  String.raw`^SG_\s+[A-Za-z_]\w*(?:\s+(?:M|m\d+M?))?\s*:\s*\d+\|\d+@[01][+-]\s*\(${NUM},${NUM}\)\s*\[${NUM}\|${NUM}\]\s*"[^"]*"\s*.*$`,
);

export function parseDbc(text: string): Database {
  if (text.length > MAX_DBC_BYTES) throw new CanFileError(1, `the file is larger than ${MAX_DBC_BYTES / 1024 / 1024} MB`);
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith("BO_ ") && !BO.test(line)) throw new CanFileError(i + 1, "expected a message like BO_ 256 Name: 8 Node");
    if (line.startsWith("SG_ ") && !SG.test(line)) {
      throw new CanFileError(i + 1, 'expected a signal like SG_ Name : 0|16@1+ (0.25,0) [0|16383.75] "rpm" Node');
    }
  });
  const dbc = new Dbc();
  let data;
  try {
    data = dbc.load(text);
  } catch (err) {
    throw new CanFileError(1, (err as Error).message);
  }
  const errors = [...dbc.errors.keys()].sort((a, b) => a - b);
  if (errors.length > 0) throw new CanFileError(errors[0]!, "this line is not valid DBC syntax");
  const messages: DbcMessage[] = [];
  for (const m of data.messages.values()) {
    // DBC marks extended IDs with bit 31.
    const ext = m.id > 0x7fffffff;
    const id = ext ? m.id - 0x80000000 : m.id;
    if (id > MAX_EXT_ID) throw new CanFileError(lineOf(lines, `BO_ ${m.id} `), `message ID ${m.id} is out of range`);
    messages.push({
      id,
      ext,
      name: m.name,
      dlc: m.dlc,
      signals: [...m.signals.values()].map((s) => ({
        name: s.name,
        startBit: s.startBit,
        length: s.length,
        littleEndian: s.endian === "Intel",
        signed: s.signed,
        factor: s.factor,
        offset: s.offset,
        min: s.min,
        max: s.max,
        unit: s.unit,
      })),
    });
  }
  if (messages.length === 0) throw new CanFileError(Math.max(1, lines.length), "the file defines no messages (BO_)");
  for (const m of messages) {
    for (const s of m.signals) {
      if (s.length < 1 || s.length > 64 || !fits(s, Math.max(m.dlc, 8))) {
        throw new CanFileError(lineOf(lines, `SG_ ${s.name} `), `signal ${s.name} does not fit in ${m.name}`);
      }
    }
  }
  return { messages };
}

function lineOf(lines: string[], start: string): number {
  const i = lines.findIndex((l) => l.trim().startsWith(start));
  return i < 0 ? 1 : i + 1;
}

function fits(s: DbcSignal, bytes: number): boolean {
  const bits = bytes * 8;
  if (s.littleEndian) return s.startBit + s.length <= bits;
  let pos = s.startBit;
  for (let i = 1; i < s.length; i++) {
    pos = pos % 8 === 0 ? pos + 15 : pos - 1;
    if (pos >= bits) return false;
  }
  return pos < bits;
}

/** The raw integer of a signal, or null when the payload is too short for it. */
export function rawValue(s: DbcSignal, data: Uint8Array): number | null {
  let raw = 0n;
  if (s.littleEndian) {
    for (let i = s.length - 1; i >= 0; i--) {
      const bit = s.startBit + i;
      const byte = bit >> 3;
      if (byte >= data.length) return null;
      raw = (raw << 1n) | BigInt((data[byte]! >> (bit & 7)) & 1);
    }
  } else {
    // Motorola: the start bit is the most significant bit; bits run down inside a byte, then
    // on to the top of the next byte ("sawtooth" numbering).
    let bit = s.startBit;
    for (let i = 0; i < s.length; i++) {
      const byte = bit >> 3;
      if (byte >= data.length) return null;
      raw = (raw << 1n) | BigInt((data[byte]! >> (bit & 7)) & 1);
      bit = bit % 8 === 0 ? bit + 15 : bit - 1;
    }
  }
  if (s.signed && raw >> BigInt(s.length - 1) === 1n) raw -= 1n << BigInt(s.length);
  return Number(raw);
}

/** Physical value: raw × factor + offset (not clamped: a value outside min/max is shown as it is). */
export function decodeSignal(s: DbcSignal, data: Uint8Array): number | null {
  const raw = rawValue(s, data);
  return raw === null ? null : raw * s.factor + s.offset;
}

export function findMessage(db: Database, id: number, ext: boolean): DbcMessage | undefined {
  return db.messages.find((m) => m.id === id && m.ext === ext);
}
