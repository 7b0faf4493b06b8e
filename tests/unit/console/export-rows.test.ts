import { describe, expect, it } from "vitest";
import { CsvRowCounter, countCsvRows } from "~/ui/export/csvRowCounter";

// The export's row count counts samples: not the header, comment lines, a BOM or blank lines.
describe("export row count", () => {
  it("leaves out the column header", () => {
    expect(countCsvRows("time,a\r\n1,2\r\n3,4\r\n")).toBe(2);
    expect(countCsvRows("time,a\r\n")).toBe(0);
    expect(countCsvRows("")).toBe(0);
  });

  it("leaves out metadata comment lines, a byte-order mark and blank lines", () => {
    const text = "\ufeff# Measurement: Run 1\r\n# Operator: Anna\r\ntime;a\r\n1;2,5\r\n\r\n3;4\r\n";
    expect(countCsvRows(text)).toBe(2);
  });

  it("counts a last row without a line break once the file is complete", () => {
    const c = new CsvRowCounter();
    c.add(new TextEncoder().encode("time,a\n1,2\n3,4"));
    expect(c.rows()).toBe(1);
    expect(c.rows(true)).toBe(2);
  });

  it("counts the same however the stream is cut into chunks", () => {
    const bytes = new TextEncoder().encode("\ufeff# a\r\n# b\r\ntime,v\r\n1,2\r\n3,4\r\n5,6\r\n");
    for (let size = 1; size <= 7; size++) {
      const c = new CsvRowCounter();
      for (let i = 0; i < bytes.length; i += size) c.add(bytes.subarray(i, i + size));
      expect(c.rows(true)).toBe(3);
    }
  });

  it("a '#' after the first character of a line is data", () => {
    expect(countCsvRows("time,\"a#b\"\n1,2\n")).toBe(1);
  });
});
