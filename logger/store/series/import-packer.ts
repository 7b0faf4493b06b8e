import { parentPort } from "node:worker_threads";
import { ROOM, SLAB_BYTES, SLAB_ROWS, SLABS, SLAB_WAIT_MS, inputHeader, slabViews } from "./import-protocol.ts";
import type { PackerReply, PackerRequest } from "./import-protocol.ts";
import { forEachRun } from "./runs.ts";
import { VarSeries } from "./writer.ts";

// The import packer's thread (streamed-import.ts): builds the rows of imports written as they
// arrive — each variable's blocks and rollup chunks, packed as the store packs them — off the
// event loop. It never touches the database: it hands the rows back, and the logger's thread
// writes them. One thread serves every import (messages carry the import's number).

type Import = {
  id: number;
  series: VarSeries[];
  input: SharedArrayBuffer;
  inFull: Int32Array;
  slotBytes: number;
  inSlots: number;
  slabs: ReturnType<typeof slabViews>[];
  slabFull: Int32Array;
  /** The slab being filled, its rows and bytes. */
  slab: number;
  count: number;
  bytes: number;
};

const imports = new Map<number, Import>();
const port = parentPort!;

/** Hands the slab being filled (if it holds rows) over to the logger's thread. */
function handOver(im: Import): void {
  if (im.count === 0) return;
  Atomics.store(im.slabFull, im.slab, 1);
  port.postMessage({ op: "rows", id: im.id, slab: im.slab, count: im.count } satisfies PackerReply);
  im.slab = (im.slab + 1) % SLABS;
  im.count = 0;
  im.bytes = 0;
}

/** Hands the slab being filled over and takes the next, waiting until the logger's thread has written it. */
function send(im: Import): void {
  handOver(im);
  if (Atomics.wait(im.slabFull, im.slab, 1, SLAB_WAIT_MS) === "timed-out") throw new Error(`no slab written back for ${SLAB_WAIT_MS / 1000} s`);
}

function open(m: Extract<PackerRequest, { op: "open" }>): void {
  const im: Import = {
    id: m.id,
    series: [],
    input: m.input,
    inFull: new Int32Array(m.input, 0, m.inSlots),
    slotBytes: m.slotBytes,
    inSlots: m.inSlots,
    slabs: m.slabs.map(slabViews),
    slabFull: new Int32Array(m.slabFull),
    slab: 0,
    count: 0,
    bytes: 0,
  };
  // Blocks arrive as views of the packer's scratch (transient): copied into the slab at once.
  const sink = (id: bigint, bytes: Uint8Array) => {
    if (im.bytes + bytes.byteLength > SLAB_BYTES + ROOM || im.count === SLAB_ROWS) send(im);
    const s = im.slabs[im.slab]!;
    s.bytes.set(bytes, im.bytes);
    im.bytes += bytes.byteLength;
    s.ids[im.count] = id;
    s.ends[im.count++] = im.bytes;
  };
  im.series = m.keys.map((key) => new VarSeries(key, m.periodUs, sink, { pack: m.pack, transient: true }));
  imports.set(m.id, im);
}

function rows(m: Extract<PackerRequest, { op: "rows" }>): void {
  const im = imports.get(m.id);
  if (!im) return;
  const width = im.series.length;
  const at = inputHeader(im.inSlots) + m.slot * im.slotBytes;
  const slots = new Float64Array(im.input, at, m.n);
  forEachRun(slots, m.n, (a, b) => {
    for (let c = 0; c < width; c++) im.series[c]!.append(slots[a]!, new Float32Array(im.input, at + m.n * 8 + (c * m.n + a) * 4, b - a));
  });
  Atomics.store(im.inFull, m.slot, 0);
  port.postMessage({ op: "took", id: m.id, slot: m.slot } satisfies PackerReply);
  if (im.bytes >= SLAB_BYTES) send(im);
}

port.on("message", (m: PackerRequest) => {
  try {
    if (m.op === "open") open(m);
    else if (m.op === "rows") rows(m);
    else if (m.op === "drop") {
      imports.delete(m.id);
      port.postMessage({ op: "ended", id: m.id } satisfies PackerReply);
    }
    else {
      const im = imports.get(m.id);
      if (im) {
        for (const vs of im.series) vs.flushPartial();
        handOver(im);
        imports.delete(m.id);
      }
      port.postMessage({ op: "ended", id: m.id } satisfies PackerReply);
    }
  } catch (err) {
    imports.delete(m.id);
    port.postMessage({ op: "failed", id: m.id, message: (err as Error).message } satisfies PackerReply);
  }
});
