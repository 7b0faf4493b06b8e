import type { ServerResponse } from "node:http";
import { DRAIN_IDLE_MS, drainedWithin, pacer } from "./pacing.ts";

// A long answer written as it is computed: text is collected up to FLUSH_CHARS, handed to the
// socket, and the next piece is computed only once the socket took it (back-pressure). So a
// client that reads slowly holds one piece of the answer in the logger, never the whole of it.

/** Characters collected before they go to the socket. */
export const FLUSH_CHARS = 32 * 1024;

/**
 * How a long answer's slices of work get the CPU: one after another with a turn for other
 * requests every 10 ms of this answer's own (pacedWork), or in the heavy answers' shared lane
 * (HeavyLane.run).
 */
export type Work = <T>(work: () => T | Promise<T>) => Promise<T>;

export function pacedWork(): Work {
  const pace = pacer();
  return async (work) => {
    const out = await work();
    await pace();
    return out;
  };
}

export class AnswerStream {
  private readonly res: ServerResponse;
  private readonly idleMs: number;
  private text = "";

  constructor(res: ServerResponse, idleMs = DRAIN_IDLE_MS) {
    this.res = res;
    this.idleMs = idleMs;
  }

  /** False once the client is gone (or was cut off for not reading): stop computing. */
  get open(): boolean {
    return !this.res.destroyed;
  }

  /** Adds text; once FLUSH_CHARS are collected, waits until the socket took them. False: the client is gone. */
  async put(text: string): Promise<boolean> {
    this.text += text;
    return this.text.length < FLUSH_CHARS ? this.open : this.flush();
  }

  async flush(): Promise<boolean> {
    if (!this.open) return false;
    const text = this.text;
    this.text = "";
    if (this.res.write(text)) return true;
    return drainedWithin(this.res, this.idleMs);
  }

  end(): void {
    if (this.open) this.res.end(this.text);
    this.text = "";
  }
}

/**
 * `{Success: true, Data: [...items], ReturnState}` (sendData's text) with each item described and
 * written one at a time: a listing of thousands of records is never one string, and gives other
 * requests a turn every 10 ms.
 */
export async function writeDataList<T>(res: ServerResponse, items: readonly T[], describe: (item: T, index: number) => unknown): Promise<void> {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  const out = new AnswerStream(res);
  const pace = pacer();
  if (!(await out.put(`{"Success":true,"Data":[`))) return;
  for (let i = 0; i < items.length; i++) {
    if (!(await out.put(`${i ? "," : ""}${JSON.stringify(describe(items[i]!, i)) ?? "null"}`))) return;
    await pace();
  }
  await out.put(`],"ReturnState":{"Value":0,"Description":"OK"}}`);
  out.end();
}
