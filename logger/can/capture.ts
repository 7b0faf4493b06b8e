import { CanFileError, MAX_EXT_ID, MAX_STD_ID } from "./frame.ts";
import type { CanFrame } from "./frame.ts";

// Capture files: candump's log format (`candump -l`, `(1700000000.123456) can0 123#DEADBEEF`)
// and Vector ASC (`   0.010000 1  123             Rx   d 8 01 02 03 04 05 06 07 08`).
// Hand-written: both are one-line-per-frame text formats, and no maintained npm parser for
// them exists that reports the line of a malformed frame.

export const MAX_CAPTURE_BYTES = 8 * 1024 * 1024;
export const MAX_CAPTURE_FRAMES = 200_000;

export type Capture = { format: "candump" | "asc"; frames: CanFrame[] };

const CANDUMP = /^\((\d+(?:\.\d+)?)\)\s+(\S+)\s+([0-9A-Fa-f]+)#(.*)$/;

function checkId(text: string, line: number): { id: number; ext: boolean } {
  const ext = text.length > 3;
  if (text.length !== 3 && text.length !== 8) throw new CanFileError(line, `CAN ID ${text} must have 3 (standard) or 8 (extended) hex digits`);
  const id = Number.parseInt(text, 16);
  if (id > (ext ? MAX_EXT_ID : MAX_STD_ID)) throw new CanFileError(line, `CAN ID ${text} is out of range`);
  return { id, ext };
}

function candumpLine(text: string, line: number): CanFrame | null {
  const m = CANDUMP.exec(text);
  if (!m) throw new CanFileError(line, "expected a candump frame like (1700000000.000000) can0 123#DEADBEEF");
  const { id, ext } = checkId(m[3]!, line);
  let payload = m[4]!;
  if (payload.startsWith("R")) return { t: Number(m[1]) * 1000, id, ext, data: new Uint8Array(0) };
  // CAN FD frames carry a flags nibble after a second '#'.
  if (payload.startsWith("#")) payload = payload.slice(2);
  if (!/^(?:[0-9A-Fa-f]{2})*$/.test(payload)) throw new CanFileError(line, `payload ${m[4]} is not whole hex bytes`);
  if (payload.length > 128) throw new CanFileError(line, "payload longer than 64 bytes");
  return { t: Number(m[1]) * 1000, id, ext, data: Uint8Array.from(payload.match(/../g) ?? [], (h) => Number.parseInt(h, 16)) };
}

// Header and event lines of an ASC file that carry no frame.
const ASC_SKIP = /^(date|base|internal events|no internal events|begin triggerblock|end triggerblock|\/\/|version)/i;
const ASC_EVENT = /^\d+(?:\.\d+)?\s+(?:Start of measurement|ErrorFrame|Statistic:|CAN\s|\d+\s+Statistic|SV:|Log trigger|\d+\s+ErrorFrame)/i;
const ASC_FRAME = /^(\d+(?:\.\d+)?)\s+(\d+)\s+([0-9A-Fa-f]+)(x?)\s+(Rx|Tx)\s+([dr])\s*(.*)$/i;

function ascLine(text: string, line: number): CanFrame | null {
  if (ASC_SKIP.test(text) || ASC_EVENT.test(text)) return null;
  const m = ASC_FRAME.exec(text);
  if (!m) throw new CanFileError(line, "expected an ASC frame like 0.010000 1 123 Rx d 8 01 02 03 04 05 06 07 08");
  const ext = m[4] !== "" || m[3]!.length > 3;
  const id = Number.parseInt(m[3]!, 16);
  if (id > (ext ? MAX_EXT_ID : MAX_STD_ID)) throw new CanFileError(line, `CAN ID ${m[3]} is out of range`);
  const t = Number(m[1]) * 1000;
  if (m[6]!.toLowerCase() === "r") return { t, id, ext, data: new Uint8Array(0) };
  const rest = m[7]!.trim().split(/\s+/);
  const dlc = Number(rest[0]);
  if (!/^\d+$/.test(rest[0] ?? "") || dlc > 8) throw new CanFileError(line, `DLC ${rest[0] ?? ""} must be a number from 0 to 8`);
  const bytes = rest.slice(1, 1 + dlc);
  if (bytes.length < dlc) throw new CanFileError(line, `DLC ${dlc} but only ${bytes.length} data bytes`);
  const bad = bytes.find((b) => !/^[0-9A-Fa-f]{2}$/.test(b));
  if (bad !== undefined) throw new CanFileError(line, `data byte ${bad} is not two hex digits`);
  return { t, id, ext, data: Uint8Array.from(bytes, (h) => Number.parseInt(h, 16)) };
}

/** Parses a candump log or a Vector ASC file (told apart by their first frame line). */
export function parseCapture(text: string): Capture {
  if (text.length > MAX_CAPTURE_BYTES) throw new CanFileError(1, `the file is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MB`);
  const lines = text.split(/\r?\n/);
  const firstFrame = lines.find((l) => l.trim() !== "" && !ASC_SKIP.test(l.trim()));
  const format = firstFrame?.trim().startsWith("(") ? "candump" : "asc";
  const frames: CanFrame[] = [];
  lines.forEach((raw, i) => {
    const text = raw.trim();
    if (text === "" || (format === "candump" && text.startsWith("#"))) return;
    const frame = format === "candump" ? candumpLine(text, i + 1) : ascLine(text, i + 1);
    if (!frame) return;
    if (frames.length >= MAX_CAPTURE_FRAMES) throw new CanFileError(i + 1, `more than ${MAX_CAPTURE_FRAMES} frames`);
    frames.push(frame);
  });
  if (frames.length === 0) throw new CanFileError(Math.max(1, lines.length), "the file holds no CAN frames");
  return { format, frames };
}
