// One CAN frame as the scanner sees it. `t` is milliseconds: epoch ms for the simulated bus,
// the capture's own clock (seconds × 1000) for an uploaded capture.
export type CanFrame = { t: number; id: number; ext: boolean; data: Uint8Array };

export const MAX_STD_ID = 0x7ff;
export const MAX_EXT_ID = 0x1fffffff;

/** A file the user gave us is wrong at a line a person can find. */
export class CanFileError extends Error {
  readonly line: number;
  constructor(line: number, reason: string) {
    super(`Line ${line}: ${reason}`);
    this.line = line;
  }
}

export const hexId = (id: number, ext: boolean) => id.toString(16).toUpperCase().padStart(ext ? 8 : 3, "0");
export const hexBytes = (data: Uint8Array) => Array.from(data, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
