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

  it("formats time as ISO 8601 in the zone across the Europe/Rome DST changes", () => {
    const iso = timeCell("iso", "Europe/Rome", ".")!;
    expect(iso(Date.UTC(2026, 2, 29, 0, 59, 59, 999))).toBe("2026-03-29T01:59:59.999+01:00");
    expect(iso(Date.UTC(2026, 2, 29, 1, 0, 0, 0))).toBe("2026-03-29T03:00:00.000+02:00");
    expect(iso(Date.UTC(2026, 9, 25, 0, 59, 59, 0))).toBe("2026-10-25T02:59:59.000+02:00");
    expect(iso(Date.UTC(2026, 9, 25, 1, 0, 0, 0))).toBe("2026-10-25T02:00:00.000+01:00");
    expect(timeCell("iso", "UTC", ".")!(Date.UTC(2026, 0, 1))).toBe("2026-01-01T00:00:00.000Z");
    expect(timeCell("iso", "Nowhere/Else", ".")).toBeNull();
  });

  it("formats Excel serial dates in wall time of the zone, epoch ms unchanged", () => {
    const excel = timeCell("excel", "Europe/Rome", ",")!;
    expect(excel(Date.UTC(2025, 11, 31, 23, 0))).toBe("46023");
    expect(excel(Date.UTC(2026, 0, 1, 11, 0))).toBe("46023,5");
    // The hour skipped in spring: 03:00 local is 0.125 days into the day.
    expect(timeCell("excel", "Europe/Rome", ".")!(Date.UTC(2026, 2, 29, 1, 0))).toBe(String(46110 + 0.125));
    expect(timeCell("epoch", "Europe/Rome", ",")!(1767225600000)).toBe("1767225600000");
  });

  it("starts with an optional BOM and comment lines, then the quoted header", () => {
    const s = CsvSettings.parse({ Delimiter: ";", BOM: true, Comments: ["Operator: Anna", "two\nlines"] });
    expect(headerLines(s, ["Oil temperature [°C]", "a;b"])).toBe('\uFEFF# Operator: Anna\r\n# two lines\r\ntime;Oil temperature [°C];"a;b"\r\n');
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
  const post = (body: object) => fetch(`${lg.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const ref = (v: { Id: string; SourceId: string }) => ({ SID: v.SourceId, VID: v.Id });

  it("resamples with each aggregate exactly as the raw samples say", async () => {
    const end = Math.floor((Date.now() - 300) / 100) * 100;
    const range = { Start: end - 1000, End: end, Variables: [ref(oil)] };
    const raw = await (await post({ ...range })).json();
    const samples: (number | null)[] = raw.Data.TimeSeries.Values[0];
    const rows = async (aggregate: string) => {
      const text = await (await post({ ...range, Format: "csv", Interval: 100, CSVSettings: { Aggregate: aggregate, TimeFormat: "epoch" } })).text();
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
    const res = await post({ Start: -1000, Variables: [ref(oil), ref(volts)], Format: "csv", TimeZone: "Europe/Rome", CSVSettings: { Delimiter: ";", DecimalSeparator: ",", BOM: true } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFtime;Oil temperature [°C];Voltage L1 [V]\r\n")).toBe(true);
    const lines = text.trimEnd().split("\r\n");
    expect(lines.length).toBeGreaterThanOrEqual(95);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00;-?\d+(,\d+)?;(\d+(,\d+)?)?$/);
  });

  it("refuses an interval that is not a whole number of sample periods", async () => {
    const res = await post({ Start: -1000, Variables: [ref(oil)], Format: "csv", Interval: 15, CSVSettings: {} });
    expect(res.status).toBe(400);
    expect((await res.json()).ReturnState.Description).toMatch(/Interval must be a whole multiple/);
  });
});
