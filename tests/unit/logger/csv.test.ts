import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CsvSettings, headerLines, numberCell, quoteField, RowBuffer, timeCell } from "../../../logger/api/data/csv.ts";
import { ADMIN_PASSWORD, login, sleep, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

describe("CSV cells", () => {
  it("quotes per RFC 4180 only where needed", () => {
    expect(quoteField("Oil temperature [°C]", ",")).toBe("Oil temperature [°C]");
    expect(quoteField("a,b", ",")).toBe('"a,b"');
    expect(quoteField("a,b", ";")).toBe("a,b");
    expect(quoteField("a;b", ";")).toBe('"a;b"');
    expect(quoteField('say "hi"', ",")).toBe('"say ""hi"""');
    expect(quoteField("two\nlines", ",")).toBe('"two\nlines"');
  });

  it("writes numbers with the chosen decimal separator and blanks for gaps", () => {
    expect(numberCell(1.5, ".")).toBe("1.5");
    expect(numberCell(-1.5, ",")).toBe("-1,5");
    expect(numberCell(null, ",")).toBe("");
    expect(numberCell(42, ",")).toBe("42");
  });

  it("writes every float32 as its shortest decimal that reads back as the same float32", () => {
    const b = new RowBuffer(64, ".");
    const cell = (v: number) => ((b.pos = 0), b.value(v), b.buf.toString("latin1", 0, b.pos));
    for (const [v, text] of [[1, "1"], [10, "10"], [1e14, "100000000000000"], [0.1, "0.1"], [1e-6, "0.000001"], [999999, "999999"], [123.456, "123.456"], [-0.5, "-0.5"], [88.12345886230469, "88.12346"]] as const) {
      expect(cell(Math.fround(v))).toBe(text);
    }
    // Decades from 1e-6 to 1e14, both signs: each text reads back exactly, and no shorter decimal would.
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 16807) % 2147483647;
      const v = Math.fround(((seed / 2147483647) * 9 + 1) * 10 ** ((seed % 21) - 6) * (i % 2 ? -1 : 1));
      const text = cell(v);
      expect(Math.fround(Number(text))).toBe(v);
      const digits = text.replace(/^-?0*\.?0*/, "").replace(".", "").length;
      // (Whole numbers are written out in full rather than in exponent notation.)
      if (digits > 1 && text.includes(".")) expect(Math.fround(Number(v.toPrecision(digits - 1)))).not.toBe(v);
    }
  });

  const cell = (DateTimeFormat: string, zone: string, DecimalSeparator: "." | "," = ".") => {
    const f = timeCell({ DateTimeFormat, DecimalSeparator }, zone);
    if ("problem" in f) throw new Error(f.problem);
    return f;
  };

  it("formats time as ISO 8601 in the zone across the Europe/Rome DST changes", () => {
    const iso = cell("%Y-%m-%dT%H:%M:%S.%%3us%:z", "Europe/Rome");
    expect(iso(Date.UTC(2026, 2, 29, 0, 59, 59, 999))).toBe("2026-03-29T01:59:59.999+01:00");
    expect(iso(Date.UTC(2026, 2, 29, 1, 0, 0, 0))).toBe("2026-03-29T03:00:00.000+02:00");
    expect(iso(Date.UTC(2026, 9, 25, 0, 59, 59, 0))).toBe("2026-10-25T02:59:59.000+02:00");
    expect(iso(Date.UTC(2026, 9, 25, 1, 0, 0, 0))).toBe("2026-10-25T02:00:00.000+01:00");
    expect(cell("%Y-%m-%dT%H:%M:%S.%%3usZ", "UTC")(Date.UTC(2026, 0, 1))).toBe("2026-01-01T00:00:00.000Z");
    expect(timeCell({ DateTimeFormat: "%F", DecimalSeparator: "." }, "Nowhere/Else")).toEqual({ problem: "Unknown TimeZone Nowhere/Else" });
  });

  it("honours the contract's date-time notation, with %%0us as microseconds", () => {
    const t = Date.UTC(2026, 10, 3, 14, 5, 7, 250) + 0.125;
    expect(cell("%Y-%m-%d %H:%M:%S.%%0us", "UTC")(t)).toBe("2026-11-03 14:05:07.250125");
    expect(cell("%d.%m.%Y %H:%M:%S.%%0us", "Europe/Rome")(t)).toBe("03.11.2026 15:05:07.250125");
    expect(cell("%d/%m/%y %T,%%1us %z %j %%", "Europe/Rome")(t)).toBe("03/11/26 15:05:07,2 +0100 307 %");
    expect(cell("%s%%3us", "Europe/Rome")(Date.UTC(2026, 0, 1, 0, 0, 0, 7))).toBe("1767225600007");
    // Within one second only the fraction changes (the formatter caches the rest).
    const f = cell("%H:%M:%S.%%6us", "UTC");
    expect([f(1000), f(1500.5), f(2999.999)]).toEqual(["00:00:01.000000", "00:00:01.500500", "00:00:02.999999"]);
    expect(timeCell({ DateTimeFormat: "%Y-%q", DecimalSeparator: "." }, "UTC")).toEqual({ problem: 'DateTimeFormat "%Y-%q": unknown conversion %q at position 4' });
  });

  it("formats Excel serial dates in wall time of the zone", () => {
    const excel = cell("excel", "Europe/Rome", ",");
    expect(excel(Date.UTC(2025, 11, 31, 23, 0))).toBe("46023");
    expect(excel(Date.UTC(2026, 0, 1, 11, 0))).toBe("46023,5");
    // The hour skipped in spring: 03:00 local is 0.125 days into the day.
    expect(cell("excel", "Europe/Rome")(Date.UTC(2026, 2, 29, 1, 0))).toBe(String(46110 + 0.125));
  });

  it("starts with an optional BOM and the header text, then the quoted column header", () => {
    const s = CsvSettings.parse({ ColumnSeparator: ";", BOM: true, HeaderText: "# Operator: Anna\n# Cell 7", DateTimeHeader: "Zeit" });
    expect(headerLines(s, ["Oil temperature [°C]", "a;b"])).toBe('\uFEFF# Operator: Anna\r\n# Cell 7\r\nZeit;Oil temperature [°C];"a;b"\r\n');
    expect(headerLines(CsvSettings.parse({ AddColumnHeader: false }), ["x"])).toBe("");
    expect(headerLines(CsvSettings.parse({}), ["x"])).toBe("datetime;x\r\n");
    expect(CsvSettings.safeParse({ ColumnSeparator: ",", DecimalSeparator: "," }).success).toBe(false);
    expect(CsvSettings.safeParse({ ColumnSeparator: "1" }).success).toBe(false);
  });
});

describe("CSV export over HTTP", () => {
  let lg: TestLogger;
  let token: string;
  let oil: { Id: string; SourceId: string };
  let volts: { Id: string; SourceId: string };
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 9, tickMs: 50 } });
    token = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const vars = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data;
    oil = vars.find((v: { Name: string }) => v.Name === "Oil temperature");
    volts = vars.find((v: { Name: string }) => v.Name === "Voltage L1");
    await sleep(1500);
  });
  afterAll(() => lg.stop());
  const post = (body: object) => fetch(`${lg.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const ref = (v: { Id: string; SourceId: string }) => ({ SID: v.SourceId, VID: v.Id });

  it("resamples with each aggregate exactly as the raw samples say", async () => {
    const end = Math.floor((Date.now() - 300) / 100) * 100;
    const range = { Start: end - 1000, End: end, Variables: [ref(oil)] };
    const raw = await (await post({ ...range })).json();
    const samples: (number | null)[] = raw.Data[0].TimeSeries.Values[0];
    const rows = async (aggregate: string) => {
      const text = await (await post({ ...range, Format: "csv", Interval: 100, CSVSettings: { Aggregate: aggregate, DateTimeFormat: "%s%%3us", ColumnSeparator: "," } })).text();
      return text.trimEnd().split("\r\n").slice(1).map((l) => l.split(","));
    };
    const buckets = Array.from({ length: 10 }, (_, k) => samples.slice(k * 10, k * 10 + 10).filter((v): v is number => v !== null));
    const min = await rows("min");
    expect(min).toHaveLength(10);
    expect(min.map((r) => Number(r[0]))).toEqual(buckets.map((_, k) => end - 1000 + k * 100));
    expect(min.map((r) => Number(r[1]))).toEqual(buckets.map((b) => Math.min(...b)));
    expect((await rows("max")).map((r) => Number(r[1]))).toEqual(buckets.map((b) => Math.max(...b)));
    expect((await rows("last")).map((r) => Number(r[1]))).toEqual(buckets.map((b) => b.at(-1)));
    const mean = (await rows("mean")).map((r) => Number(r[1]));
    mean.forEach((m, k) => expect(m).toBeCloseTo(buckets[k]!.reduce((a, b) => a + b, 0) / buckets[k]!.length, 4));
  });

  it("writes raw samples with the Italian separators, a BOM and local ISO times", async () => {
    const res = await post({ Start: -1000, Variables: [ref(oil), ref(volts)], Format: "csv", TimeZone: "Europe/Rome", CSVSettings: { ColumnSeparator: ";", DecimalSeparator: ",", BOM: true, DateTimeHeader: "time", DateTimeFormat: "%Y-%m-%dT%H:%M:%S.%%3us%:z" } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFtime;Oil temperature [°C];Voltage L1 [V]\r\n")).toBe(true);
    const lines = text.trimEnd().split("\r\n");
    expect(lines.length).toBeGreaterThanOrEqual(95);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00;-?\d+(,\d+)?;(\d+(,\d+)?)?$/);
  });

  it("rounds to Precision and refuses an unknown date-time directive", async () => {
    const res = await post({ Start: -500, Variables: [ref(oil)], Format: "csv", Precision: 1, CSVSettings: { AddColumnHeader: false, DecimalSeparator: ",", DateTimeFormat: "%s" } });
    const values = (await res.text()).trimEnd().split("\r\n").map((l) => l.split(";")[1]);
    expect(values.filter(Boolean).length).toBeGreaterThan(10);
    // (The newest rows may lie after the last sample written: empty cells.)
    for (const v of values) expect(v).toMatch(/^(-?\d+(,\d)?)?$/);
    const bad = await post({ Start: -500, Variables: [ref(oil)], Format: "csv", CSVSettings: { DateTimeFormat: "%Q" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).ReturnState.Description).toMatch(/unknown conversion %Q/);
  });

  it("refuses an interval that is not a whole number of sample periods", async () => {
    const res = await post({ Start: -1000, Variables: [ref(oil)], Format: "csv", Interval: 15, CSVSettings: {} });
    expect(res.status).toBe(400);
    expect((await res.json()).ReturnState.Description).toMatch(/Interval must be a whole multiple/);
  });
});
