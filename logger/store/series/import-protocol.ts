// What the logger's thread and the import packer's thread (import-packer.ts, streamed-import.ts)
// say to each other. The bytes go both ways through shared memory set up once per import, never
// in transferred buffers: V8 counts every buffer that arrives as newly allocated outside its heap,
// and 1.3 GB of them per 500 MB import made the logger's thread run a full collection every ~100 ms.

/** Rows gathered in a slab before it goes to the logger's thread (one write there). */
export const SLAB_BYTES = 1024 * 1024;
/** Past SLAB_BYTES: room for one more row, at most a plain block or chunk (16 KB). */
export const ROOM = 64 * 1024;
export const SLAB_ROWS = 4096;
/** Slabs per import: the packer waits when all are full. */
export const SLABS = 3;
/** A slab: rows' bytes, then their ids (BigInt64), then where each ends (Uint32). */
export const slabSize = () => SLAB_BYTES + ROOM + SLAB_ROWS * 12;
export const slabViews = (sab: SharedArrayBuffer) => ({
  bytes: new Uint8Array(sab, 0, SLAB_BYTES + ROOM),
  ids: new BigInt64Array(sab, SLAB_BYTES + ROOM, SLAB_ROWS),
  ends: new Uint32Array(sab, SLAB_BYTES + ROOM + SLAB_ROWS * 8, SLAB_ROWS),
});
/** Bytes before an input's first slot: its Int32 flags, padded so that each slot starts at a multiple of 8 (Float64s). */
export const inputHeader = (inSlots: number) => Math.ceil(inSlots / 2) * 8;
/** How long the packer waits for a slab before it gives up (the logger's thread writes one in ms). */
export const SLAB_WAIT_MS = 60_000;

export type PackerRequest =
  /**
   * input: `inSlots` slots of `slotBytes` each (a multiple of 8) after inputHeader(inSlots) bytes
   * of flags: full[slot] (Int32) is 1 while the packer holds the slot. slabs: SLABS slabs; slabFull[k] is 1 until the logger's
   * thread has written slab k.
   */
  | { op: "open"; id: number; keys: number[]; periodUs: number; pack: boolean; input: SharedArrayBuffer; inSlots: number; slotBytes: number; slabs: SharedArrayBuffer[]; slabFull: SharedArrayBuffer }
  /** Slot `slot` holds n rows: their sample indices (Float64, n) then each column's values (Float32, n each). */
  | { op: "rows"; id: number; slot: number; n: number }
  /** Every row, the partial ones too, then "ended". */
  | { op: "end"; id: number }
  /** Forget the import, then "ended". */
  | { op: "drop"; id: number };

export type PackerReply =
  /** Slab k holds count rows. */
  | { op: "rows"; id: number; slab: number; count: number }
  /** Input slot `slot` is free again. */
  | { op: "took"; id: number; slot: number }
  | { op: "ended"; id: number }
  | { op: "failed"; id: number; message: string };

