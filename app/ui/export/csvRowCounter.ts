// Counts an export's data rows as its bytes stream in: not the column header, not the `# ...`
// metadata comment lines above it, not a byte-order mark or blank lines — so "12,000 rows" means
// twelve thousand samples, whatever options the file was made with.

const NL = 10;
const CR = 13;
const HASH = 35;
const BOM = [0xef, 0xbb, 0xbf];

export class CsvRowCounter {
  /** Finished lines that hold content (the header among them). */
  private lines = 0;
  /** What the current line is so far: nothing yet, a comment, or content. */
  private kind: "none" | "comment" | "content" = "none";
  private offset = 0;
  private bomBytes = 0;

  add(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const b = chunk[i]!;
      // A byte-order mark is skipped only as the file's very first bytes.
      if (this.offset === this.bomBytes && this.offset < BOM.length && b === BOM[this.offset]) {
        this.bomBytes++;
        continue;
      }
      if (b === NL) {
        if (this.kind === "content") this.lines++;
        this.kind = "none";
      } else if (b !== CR && this.kind === "none") {
        this.kind = b === HASH ? "comment" : "content";
      }
    }
  }

  /** Data rows so far; `finished` counts a last line without a line break too. */
  rows(finished = false): number {
    const content = this.lines + (finished && this.kind === "content" ? 1 : 0);
    return Math.max(0, content - 1);
  }
}

/** The data rows of a whole CSV text (tests, and anything holding the file at once). */
export function countCsvRows(text: string): number {
  const counter = new CsvRowCounter();
  counter.add(new TextEncoder().encode(text));
  return counter.rows(true);
}
