import { z } from "zod";

// The logger family's WebSocket framing (docs/logger-api.md, "Live values over WebSocket"):
// byte 0x00, the header's length as 2 bytes little-endian, the JSON header
// ["", msgType, workerType, workerId, ""], then the JSON payload up to the end of the frame.

export const MsgType = {
  Unspecified: 0,
  Subscribe: 1,
  Publish: 2,
  Stop: 3,
  Request: 7,
  Response: 8,
  Error: 10,
  Authentication: 13,
} as const;

export const WorkerType = {
  Rpc: 1,
  OnlineData: 2,
  Authentication: 13,
  SystemState: 15,
  MessageEvents: 17,
} as const;

export const MSG_NAMES: Record<number, string> = Object.fromEntries(Object.entries(MsgType).map(([k, v]) => [v, k]));
export const WORKER_NAMES: Record<number, string> = Object.fromEntries(Object.entries(WorkerType).map(([k, v]) => [v, k]));

/** Clients pick their own worker ids; a number or a short string, echoed in every answer. */
export const WorkerId = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().max(64)]);
export type WorkerId = z.infer<typeof WorkerId>;

export const FrameHeader = z.tuple([z.string().max(64), z.number().int().min(0).max(255), z.number().int().min(0).max(255), WorkerId, z.string().max(64)]);

export type Frame = { msgType: number; workerType: number; workerId: WorkerId; payload: unknown };

export function encodeFrame(msgType: number, workerType: number, workerId: WorkerId, payload: unknown): Buffer {
  return encodeJsonFrame(msgType, workerType, workerId, payload === undefined ? "" : JSON.stringify(payload));
}

/** For payloads built as JSON text already (the publish path, which assembles it piecewise). */
export function encodeJsonFrame(msgType: number, workerType: number, workerId: WorkerId, payloadJson: string): Buffer {
  const header = JSON.stringify(["", msgType, workerType, workerId, ""]);
  const hl = Buffer.byteLength(header);
  const pl = Buffer.byteLength(payloadJson);
  const buf = Buffer.allocUnsafe(3 + hl + pl);
  buf[0] = 0;
  buf.writeUInt16LE(hl, 1);
  buf.write(header, 3, "utf8");
  buf.write(payloadJson, 3 + hl, "utf8");
  return buf;
}

export type Decoded = { ok: true; frame: Frame } | { ok: false; error: string; header?: { workerType: number; workerId: WorkerId } };

/** A frame from a client, checked down to the header's fields; the payload is parsed JSON (null when empty). */
export function decodeFrame(buf: Buffer): Decoded {
  if (buf.length < 3) return { ok: false, error: `Frame too short (${buf.length} bytes): expected 0x00, a 2-byte header length, the header and the payload` };
  if (buf[0] !== 0) return { ok: false, error: `Frame must start with byte 0x00, not 0x${buf[0]!.toString(16).padStart(2, "0")}` };
  const hl = buf.readUInt16LE(1);
  if (3 + hl > buf.length) return { ok: false, error: `Header length ${hl} runs past the end of the ${buf.length}-byte frame` };
  let rawHeader: unknown;
  try {
    rawHeader = JSON.parse(buf.toString("utf8", 3, 3 + hl));
  } catch {
    return { ok: false, error: "Header is not JSON: expected [\"\", msgType, workerType, workerId, \"\"]" };
  }
  const header = FrameHeader.safeParse(rawHeader);
  if (!header.success) {
    return { ok: false, error: `Header must be ["", msgType, workerType, workerId, ""] (${header.error.issues[0]?.message ?? "invalid"})` };
  }
  const [, msgType, workerType, workerId] = header.data;
  const text = buf.toString("utf8", 3 + hl).trim();
  let payload: unknown = null;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      return { ok: false, error: `Payload of a ${MSG_NAMES[msgType] ?? `type ${msgType}`} frame is not JSON`, header: { workerType, workerId } };
    }
  }
  return { ok: true, frame: { msgType, workerType, workerId, payload } };
}
