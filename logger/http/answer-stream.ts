import type { ServerResponse } from "node:http";
import { drainedWithin, pacer } from "./pacing.ts";

// A long answer written as it is computed: text is collected up to FLUSH_CHARS, handed to the
// socket, and the next piece is computed only once the socket took it (back-pressure). So a
// client that reads slowly holds one piece of the answer in the logger, never the whole of it.

/** Characters collected before they go to the socket. */
export const FLUSH_CHARS = 64 * 1024;

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
  private text = "";

  constructor(res: ServerResponse) {
    this.res = res;
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
    return drainedWithin(this.res);
  }

  end(): void {
    if (this.open) this.res.end(this.text);
    this.text = "";
  }
}
