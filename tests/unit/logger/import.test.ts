import { request } from "node:http";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTimeParser, compileDateTimeFormat, formatDateTime, parseDateTime } from "../../../logger/api/data/datetime-format.ts";
import { readNumber } from "../../../logger/api/data/import-csv.ts";
import { zoneOffset } from "../../../logger/api/data/timefmt.ts";
import { ImportSpool, placeRows, writeRows } from "../../../logger/store/series/import.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { rmSync } from "node:fs";
import { ADMIN_PASSWORD, addUser, login, rpc, sleep, start, tempDir } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

type Answer = { status: number; body: any };

const SEMI = {
  ColumnSeparator: ";",
  DecimalSeparator: ",",
  NameRowIndex: 0,
  UnitRowIndex: 1,
  ValuesStartRowIndex: 2,
  ValuesStartColumnIndex: 2,
  DateTimeFmtColumn1: "%d.%m.%Y",
  DateTimeFmtColumn2: "%H:%M:%S.%F",
  DateTimeFmtColumn3: "",
};
const COMMA = {
  ColumnSeparator: ",",
  DecimalSeparator: ".",
  NameRowIndex: 0,
  UnitRowIndex: 0,
  ValuesStartRowIndex: 1,
  ValuesStartColumnIndex: 1,
  DateTimeFmtColumn1: "%Y-%m-%d %H:%M:%S.%%0us",
};

/** Bits of a float32, so that equality is exact (NaN-free inputs, no -0). */
const bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

/** The shortest decimal that reads back as float32 v. */
function shortest(v: number): string {
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

describe("CSV import sessions", () => {
  let lg: TestLogger;
  let admin: string;

  async function call(method: string, path: string, body?: unknown, token: string | null = admin): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: string | Uint8Array | undefined;
    // A file's bytes as the family's clients send them (a string alone would go as text/plain, which the logger refuses).
    if (typeof body === "string" || body instanceof Uint8Array) (payload = body), (headers["Content-Type"] = "text/csv");
    else if (body !== undefined) (payload = JSON.stringify(body)), (headers["Content-Type"] = "application/json");
    const res = await fetch(`${lg.url}${path}`, { method, headers, body: payload as BodyInit | undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const open = (params: Record<string, unknown>, token = admin) => call("POST", "/history/data/import", params, token);
  const chunk = (id: string, bytes: string | Uint8Array, token = admin) => call("POST", `/history/data/import/${id}`, bytes, token);
  const close = (id: string, token = admin) => call("DELETE", `/history/data/import/${id}`, undefined, token);
  const sources = async () => (await call("GET", "/history/structure/sources")).body.Data as { Id: string; Name: string; SampleRateHz: number; AbsoluteStart: number; LastTimeStamp: number; Variables: string[] }[];
  type Listed = { Id: string; Kind: string; Name: string; AbsoluteStart: number; LastTimeStamp: number; End: number; SourceId: string; Variables: string[]; MetaData: { Key: string; Value: string }[] };
  /** The recorded measurements of a source (not its continuous recording, Kind "Continuous"). */
  const measurementsOf = async (sid: string) =>
    ((await call("POST", `/history/structure/sources/${sid}/measurements`, { AddMeasMetaData: true, Order: "ASC" })).body.Data as Listed[]).filter((m) => m.Kind === "Measurement");
  /** Every measurement of every source. */
  const measurements = async () => (await Promise.all((await sources()).map((s) => measurementsOf(s.Id)))).flat();
  const spoolFiles = () => {
    const dir = join(lg.dataDir, "import-spool");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  /** Opens a session, sends `text` cut into the given chunk sizes (the rest in one), closes it. */
  async function importCsv(params: Record<string, unknown>, text: string | Uint8Array, cuts: number[] = []): Promise<{ opened: Answer; chunks: Answer[]; closed: Answer }> {
    const opened = await open(params);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const id = opened.body.Data.SessionId;
    const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
    const chunks: Answer[] = [];
    let at = 0;
    for (const n of [...cuts, bytes.length]) {
      if (at >= bytes.length) break;
      const piece = bytes.subarray(at, Math.min(bytes.length, at + n));
      at += piece.length;
      const answer = await chunk(id, piece);
      chunks.push(answer);
      if (answer.status !== 200) break;
    }
    return { opened, chunks, closed: await close(id) };
  }

  /** Values of a measurement as the contract reads them: mid selector, Start = End = 0. */
  async function readBack(sid: string, vids: string[], mid: string): Promise<(number | null)[][]> {
    const res = await call("POST", "/history/data", { Start: 0, End: 0, Variables: vids.map((VID) => ({ SID: sid, VID, Selector: `mid:${mid}` })) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = Array.isArray(res.body.Data) ? res.body.Data[0] : res.body.Data;
    expect(data.TimeSeries.MeasurementId).toBe(mid);
    return data.TimeSeries.Values;
  }

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("imports a ';' file with ',' decimals, split date and time columns, name and unit lines, in awkward chunks, and reads it back exactly", async () => {
    const oil = [21.5, -0.25, 1e-3, 23.45, 3.4028234663852886e38, 1.401298464324817e-45, 0, 123456789];
    const rpm = [1500, 1501.75, -1.1754943508222875e-38, 7, 8, 9, 10, 11];
    const lines = ["Date;Time;Oil temperature;Engine speed", ";;°C;rpm"];
    for (let i = 0; i < oil.length; i++) {
      const t = new Date(Date.UTC(2025, 2, 4, 10, 0, 0) + i * 250);
      const time = `${String(t.getUTCHours()).padStart(2, "0")}:00:${String(t.getUTCSeconds()).padStart(2, "0")}.${String(t.getUTCMilliseconds() * 1000).padStart(6, "0")}`;
      lines.push(`04.03.2025;${time};${shortest(Math.fround(oil[i]!)).replace(".", ",")};${shortest(Math.fround(rpm[i]!)).replace(".", ",")}`);
    }
    const text = `${lines.join("\r\n")}\r\n`;
    const before = (await measurements()).length;
    const { opened, chunks, closed } = await importCsv(
      { CSVSettings: SEMI, SourceID: "rig-2025", SourceName: "Rig archive", MeasurementName: "Run 7" },
      text,
      [1, 2, 3, 17, 40, 5, 1, 1, 1, 33],
    );
    expect(opened.body).toMatchObject({ Success: true, ReturnState: { Value: 0 }, Data: { SessionId: expect.any(String), SessionID: opened.body.Data.SessionId } });
    expect(chunks.every((c) => c.status === 200)).toBe(true);
    expect(chunks.at(-1)!.body.Data).toMatchObject({ Bytes: new TextEncoder().encode(text).length, Rows: 8 });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const start = Date.UTC(2025, 2, 4, 10);
    const d = closed.body.Data;
    expect(d).toMatchObject({ SourceId: "rig-2025", Name: "Run 7", Rows: 8, Start: start, End: start + 8 * 250, SampleRateHz: 4, ShiftMs: 0 });
    expect(d.Variables.map((v: { Name: string; Unit: string }) => [v.Name, v.Unit])).toEqual([
      ["Oil temperature", "°C"],
      ["Engine speed", "rpm"],
    ]);

    const src = (await sources()).find((s) => s.Id === "rig-2025")!;
    expect(src).toMatchObject({ Name: "Rig archive", SampleRateHz: 4, AbsoluteStart: start, LastTimeStamp: start + 7 * 250 });
    expect(src.Variables).toEqual(d.Variables.map((v: { Id: string }) => v.Id));
    const ms = await measurements();
    expect(ms).toHaveLength(before + 1);
    expect(ms.find((m) => m.Id === d.MeasurementId)).toMatchObject({
      Name: "Run 7",
      AbsoluteStart: start,
      // The last row's time, as the source says; End (Loggia's) is exclusive.
      LastTimeStamp: start + 7 * 250,
      End: start + 2000,
      SourceId: "rig-2025",
      Variables: src.Variables,
      MetaData: [
        { Key: "Origin", Value: "CSV import" },
        { Key: "Rows", Value: "8" },
      ],
    });
    const listed = (await call("GET", "/history/structure/sources/rig-2025/variables")).body.Data;
    expect(listed.map((v: { Name: string; Unit: string; DataFormat: string }) => [v.Name, v.Unit, v.DataFormat])).toEqual([
      ["Oil temperature", "°C", "FLOAT"],
      ["Engine speed", "rpm", "FLOAT"],
    ]);

    const values = await readBack("rig-2025", src.Variables, d.MeasurementId);
    expect(values[0]!.map((v) => bits(v!))).toEqual(oil.map((v) => bits(Math.fround(v))));
    expect(values[1]!.map((v) => bits(v!))).toEqual(rpm.map((v) => bits(Math.fround(v))));
    // Values that float32 holds exactly come back as written.
    expect(values[0]!.slice(0, 2)).toEqual([21.5, -0.25]);
    expect(values[0]![3]).toBe(23.45);

    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" } }, admin);
    expect(audit.body.Messages.map((m: { Text: string }) => m.Text)).toContain("Imported measurement Run 7 (8 rows)");
    expect(spoolFiles()).toEqual([]);
  });

  it("reads random float32 values back bit for bit", async () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0), seed);
    const vals: number[] = [];
    while (vals.length < 3000) {
      const v = new Float32Array(Uint32Array.of(rnd() ^ (rnd() << 16)).buffer)[0]!;
      if (Number.isFinite(v) && !Object.is(v, -0)) vals.push(v);
    }
    const rows = ["t,a [V],b [V],c [V]"];
    for (let i = 0; i < 1000; i++) {
      const t = new Date(Date.UTC(2024, 0, 1) + i * 10).toISOString().replace("T", " ").replace("Z", "000");
      rows.push(`${t},${shortest(vals[i * 3]!)},${shortest(vals[i * 3 + 1]!)},${shortest(vals[i * 3 + 2]!)}`);
    }
    const { closed } = await importCsv({ CSVSettings: COMMA, SourceID: "random-bits", SourceName: "Random" }, rows.join("\n"), [4096, 4096, 7]);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const d = closed.body.Data;
    expect(d).toMatchObject({ Rows: 1000, SampleRateHz: 100 });
    expect(d.Variables.map((v: { Unit: string }) => v.Unit)).toEqual(["V", "V", "V"]);
    const values = await readBack("random-bits", d.Variables.map((v: { Id: string }) => v.Id), d.MeasurementId);
    const back = values[0]!.flatMap((_, i) => [values[0]![i], values[1]![i], values[2]![i]]);
    expect(back.map((v) => bits(v!))).toEqual(vals.slice(0, 3000).map(bits));
  });

  it("keeps gaps: missing rows and empty cells read back as null; a quoted name may hold the separator", async () => {
    const text = [
      'time,"Flow, total [l/min]",Level [m]',
      "2024-05-01 00:00:00.000000,1.5,2",
      "2024-05-01 00:00:00.100000,,3",
      "2024-05-01 00:00:00.400000,4.25,",
      "",
      "2024-05-01 00:00:00.500000,5,6",
      "",
    ].join("\n");
    const { closed } = await importCsv({ CSVSettings: COMMA, SourceID: "gaps", SourceName: "Gaps" }, text);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const d = closed.body.Data;
    expect(d).toMatchObject({ Rows: 4, SampleRateHz: 10, End: Date.UTC(2024, 4, 1) + 600 });
    expect(d.Variables.map((v: { Name: string; Unit: string }) => `${v.Name}|${v.Unit}`)).toEqual(["Flow, total|l/min", "Level|m"]);
    const values = await readBack("gaps", d.Variables.map((v: { Id: string }) => v.Id), d.MeasurementId);
    expect(values).toEqual([
      [1.5, null, null, null, 4.25, 5],
      [2, 3, null, null, null, 6],
    ]);
  });

  it("imports the vendor's sample: a byte-order mark on every line, NaN and nan cells as gaps", async () => {
    const bom = "\ufeff";
    const text = [
      `${bom}Time;Pressure;Temperature`,
      `${bom};bar;°C`,
      `${bom}01.02.2024 10:00:00;1,5;NaN`,
      `${bom}01.02.2024 10:00:01;nan;20,25`,
      `${bom}01.02.2024 10:00:02;2,75;21`,
    ].join("\r\n");
    const settings = { ColumnSeparator: ";", DecimalSeparator: ",", NameRowIndex: 0, UnitRowIndex: 1, ValuesStartRowIndex: 2, ValuesStartColumnIndex: 1, DateTimeFmtColumn1: "%d.%m.%Y %H:%M:%S" };
    // In two chunks, one cutting a mark in half.
    const { closed } = await importCsv({ CSVSettings: settings, SourceID: "vendor-sample", SourceName: "Vendor sample" }, text, [text.indexOf("01.02.2024 10:00:01") - 2]);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const d = closed.body.Data;
    expect(d).toMatchObject({ Rows: 3, SampleRateHz: 1, Start: Date.UTC(2024, 1, 1, 10) });
    expect(d.Variables.map((v: { Name: string; Unit: string }) => `${v.Name}|${v.Unit}`)).toEqual(["Pressure|bar", "Temperature|°C"]);
    expect(await readBack("vendor-sample", d.Variables.map((v: { Id: string }) => v.Id), d.MeasurementId)).toEqual([
      [1.5, null, 2.75],
      [null, 20.25, 21],
    ]);
  });

  it("reads 12-hour times in a time zone, rounds a start off the grid to the nearest sample time and says by how much", async () => {
    const text = ["Date;Time;Zone;P", "kW", "07/01/2025;11:59:59.400 PM;x;1", "07/01/2025;11:59:59.900 PM;x;2", "07/02/2025;12:00:00.400 AM;x;3"].join("\n");
    const { closed } = await importCsv(
      {
        CSVSettings: { ...SEMI, DecimalSeparator: ".", UnitRowIndex: 1, ValuesStartColumnIndex: 3, DateTimeFmtColumn1: "%m/%d/%Y", DateTimeFmtColumn2: "%I:%M:%S.%F %p" },
        SourceID: "berlin",
        SourceName: "Berlin",
        TimeZone: "Europe/Berlin",
      },
      text,
    );
    // The unit line has one cell for four columns.
    expect(closed.status).toBe(400);
    expect(closed.body.ReturnState.Description).toMatch(/Line 2 \(units\) has 1 columns, expected 4/);

    const fixed = text.replace("\nkW\n", "\n;;;kW\n");
    const again = await importCsv(
      {
        CSVSettings: { ...SEMI, DecimalSeparator: ".", UnitRowIndex: 1, ValuesStartColumnIndex: 3, DateTimeFmtColumn1: "%m/%d/%Y", DateTimeFmtColumn2: "%I:%M:%S.%F %p" },
        SourceID: "berlin",
        SourceName: "Berlin",
        TimeZone: "Europe/Berlin",
      },
      fixed,
    );
    expect(again.closed.status, JSON.stringify(again.closed.body)).toBe(200);
    // 23:59:59.4 on 1 July in Berlin (UTC+2) is 21:59:59.4 UTC; 500 ms grid → 21:59:59.5 (+100 ms).
    expect(again.closed.body.Data).toMatchObject({ Start: Date.UTC(2025, 6, 1, 21, 59, 59, 500), SampleRateHz: 2, ShiftMs: 100, Rows: 3 });
    expect(again.closed.body.Data.Variables).toMatchObject([{ Name: "P", Unit: "kW" }]);
  });

  it("appends a second import to an existing source, matching columns by name, and refuses one that starts before its end", async () => {
    const header = "t,a,b";
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${new Date(Date.UTC(2023, 0, 1) + (from + i) * 1000).toISOString().replace("T", " ").replace("Z", "000")},${from + i},${-(from + i)}`);
    const first = await importCsv({ CSVSettings: COMMA, SourceID: "append", SourceName: "Append" }, [header, ...rows(0, 5)].join("\n"));
    expect(first.closed.status).toBe(200);
    const ids = first.closed.body.Data.Variables.map((v: { Id: string }) => v.Id);

    const before = await measurements();
    const overlap = await importCsv({ CSVSettings: COMMA, SourceID: "append", SourceName: "Append" }, [header, ...rows(4, 3)].join("\n"));
    expect(overlap.closed.status).toBe(400);
    expect(overlap.closed.body.ReturnState).toMatchObject({ Value: -6 });
    expect(overlap.closed.body.ReturnState.Description).toMatch(/^Line 2: the rows start at 2023-01-01T00:00:04.000Z, before the end of what the source already holds/);
    expect(await measurements()).toHaveLength(before.length);

    // Columns in another order and a new one: matched by name, the new one added.
    const second = await importCsv({ CSVSettings: COMMA, SourceID: "append", SourceName: "Renamed?" }, ["t,b,c,a", "2023-01-01 00:00:10.000000,-10,100,10", "2023-01-01 00:00:11.000000,-11,101,11"].join("\n"));
    expect(second.closed.status, JSON.stringify(second.closed.body)).toBe(200);
    const vars = second.closed.body.Data.Variables.map((v: { Id: string; Name: string }) => [v.Name, v.Id]);
    expect(vars[0]).toEqual(["b", ids[1]]);
    expect(vars[2]).toEqual(["a", ids[0]]);
    const src = (await sources()).find((s) => s.Id === "append")!;
    expect(src).toMatchObject({ Name: "Append", Variables: [...ids, vars[1][1]] });
    expect(await readBack("append", ids, first.closed.body.Data.MeasurementId)).toEqual([
      [0, 1, 2, 3, 4],
      [0, -1, -2, -3, -4],
    ]);
    expect(await readBack("append", [ids[0], vars[1][1]], second.closed.body.Data.MeasurementId)).toEqual([
      [10, 11],
      [100, 101],
    ]);
    // Between the two measurements the source has a gap.
    const span = await call("POST", "/history/data", { Start: Date.UTC(2023, 0, 1), End: Date.UTC(2023, 0, 1, 0, 0, 12), Variables: [{ SID: "append", VID: ids[0], Selector: "latest" }] });
    expect(span.body.Data[0].TimeSeries.Values[0]).toEqual([0, 1, 2, 3, 4, null, null, null, null, null, 10, 11]);
    expect((await measurementsOf("append")).map((m) => m.Id)).toEqual([first.closed.body.Data.MeasurementId, second.closed.body.Data.MeasurementId]);
  });

  describe("a bad file answers 400 (-6) naming line and column, and stores nothing", () => {
    const good = ["Date;Time;A;B", ";;V;V", "01.02.2025;00:00:00.000;1;2", "01.02.2025;00:00:01.000;3;4"];
    const cases: [string, string[], RegExp][] = [
      ["a missing column", [...good, "01.02.2025;00:00:02.000;5"], /^Line 5 has 3 columns, expected 4 \(as the name line 1\)/],
      ["an extra column", [...good, "01.02.2025;00:00:02.000;5;6;7"], /^Line 5 has 5 columns, expected 4/],
      ["a number with the wrong decimal separator", [...good, "01.02.2025;00:00:02.000;5.5;6"], /^Line 5, column 3 \(A\): cannot read "5\.5" as a number with decimal separator ","/],
      ["text in a value column", [...good, "01.02.2025;00:00:02.000;5;n/a"], /^Line 5, column 4 \(B\): cannot read "n\/a" as a number/],
      ["a value beyond float32", [...good, "01.02.2025;00:00:02.000;1e39;6"], /^Line 5, column 3 \(A\): cannot read "1e39"/],
      ["a date that does not match", [...good, "2025-02-01;00:00:02.000;5;6"], /^Line 5, column 1: cannot read "2025-02-01" as "%d\.%m\.%Y"/],
      ["a date that does not exist", [...good, "30.02.2025;00:00:02.000;5;6"], /^Line 5, column 1: day 30 out of range/],
      ["a time that does not match", [...good, "01.02.2025;00:00;5;6"], /^Line 5, column 2: cannot read "00:00" as "%H:%M:%S\.%i"/],
      ["a time that goes back", [...good, "01.02.2025;00:00:00.500;5;6"], /^Line 5, column 1: time 2025-02-01T00:00:00\.500Z is not after the previous row's 2025-02-01T00:00:01\.000Z/],
      ["a repeated time", [...good, "01.02.2025;00:00:01.000;5;6"], /^Line 5, column 1: time .* is not after/],
      ["irregular times", [...good, "01.02.2025;00:00:02.300;5;6"], /^Line 5, column 1: 2025-02-01T00:00:02\.300Z is 300 ms off the 1 s grid/],
      ["an unclosed quote", [...good, '01.02.2025;00:00:02.000;"5;6'], /^Line 5: a quote is not closed/],
    ];
    for (const [what, lines, message] of cases) {
      it(what, async () => {
        const sourcesBefore = await sources();
        const measurementsBefore = await measurements();
        const { chunks, closed } = await importCsv({ CSVSettings: { ...SEMI, DateTimeFmtColumn2: "%H:%M:%S.%i" }, SourceID: "bad", SourceName: "Bad" }, lines.join("\n") + "\n", [40]);
        const failed = [...chunks, closed].find((a) => a.status !== 200)!;
        expect(failed.status).toBe(400);
        expect(failed.body).toMatchObject({ Success: false, ReturnState: { Value: -6 } });
        expect(failed.body.ReturnState.Description).toMatch(message);
        expect(failed.body.ReturnState.Description).toMatch(/Nothing was stored/);
        expect(closed.status).toBe(400);
        expect(await sources()).toEqual(sourcesBefore);
        expect(await measurements()).toEqual(measurementsBefore);
        expect(spoolFiles()).toEqual([]);
      });
    }

    it("refuses more chunks once a chunk failed, closes on DELETE and forgets the session then", async () => {
      const opened = await open({ CSVSettings: SEMI, SourceID: "bad2", SourceName: "Bad" });
      const id = opened.body.Data.SessionId;
      expect((await chunk(id, "Date;Time;A\n;;V\n01.02.2025;00:00:00.0;x\n")).status).toBe(400);
      expect(spoolFiles()).toEqual([]);
      const again = await chunk(id, "01.02.2025;00:00:01.0;1\n");
      expect(again.status).toBe(400);
      expect(again.body.ReturnState.Description).toMatch(/^The import failed, nothing was stored: Line 3, column 3 \(A\)/);
      expect((await close(id)).status).toBe(400);
      expect((await close(id)).status).toBe(404);
      expect((await sources()).some((s) => s.Id === "bad2")).toBe(false);
    });

    it("a last line without a line break is read when the session closes", async () => {
      const { chunks, closed } = await importCsv({ CSVSettings: SEMI, SourceID: "bad3", SourceName: "Bad" }, "Date;Time;A\n;;V\n01.02.2025;00:00:00.0;1\n01.02.2025;00:00:01.0;oops");
      expect(chunks[0]!.status).toBe(200);
      expect(closed.status).toBe(400);
      expect(closed.body.ReturnState.Description).toMatch(/^Line 4, column 3 \(A\): cannot read "oops"/);
      expect((await sources()).some((s) => s.Id === "bad3")).toBe(false);
    });

    it("a file without data rows", async () => {
      const { closed } = await importCsv({ CSVSettings: SEMI, SourceID: "bad4", SourceName: "Bad" }, "Date;Time;A\n;;V\n");
      expect(closed.status).toBe(400);
      expect(closed.body.ReturnState.Description).toMatch(/no data rows: 2 lines, and values start at line 3/);
    });
  });

  it("validates the session's settings with the vendor client's spellings", async () => {
    const bad = async (params: Record<string, unknown>, message: RegExp) => {
      const res = await open(params);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.ReturnState).toMatchObject({ Value: -6 });
      expect(res.body.ReturnState.Description).toMatch(message);
    };
    const base = { CSVSettings: SEMI, SourceID: "v", SourceName: "V" };
    await bad({ ...base, CSVSettings: { ...SEMI, DecimalSeparator: ";" } }, /DecimalSeparator/);
    await bad({ ...base, CSVSettings: { ...SEMI, ColumnSeparator: "," } }, /must differ/);
    await bad({ ...base, CSVSettings: { ...SEMI, DateTimeFmtColumn1: "%Q" } }, /unknown conversion %Q/);
    await bad({ ...base, CSVSettings: { ...SEMI, DateTimeFmtColumn1: "%H:%M", DateTimeFmtColumn2: "" } }, /no full date/);
    await bad({ ...base, CSVSettings: { ...SEMI, ValuesStartColumnIndex: 1 } }, /lies in the 2 date-time columns/);
    await bad({ ...base, CSVSettings: { ...SEMI, NameRowIndex: 2 } }, /NameRowIndex 2 must be before ValuesStartRowIndex 2/);
    await bad({ ...base, CSVSettings: { ...SEMI, DateTimeFmtColumn2: "", DateTimeFmtColumn3: "%H" } }, /needs DateTimeFmtColumn2/);
    await bad({ ...base, Type: "xlsx" }, /Type must be csv or udbf/);
    await bad({ ...base, SampleRate: 3 }, /no whole number of microseconds/);
    await bad({ ...base, TimeZone: "Mars/Olympus" }, /Unknown TimeZone/);
    await bad({ ...base, TimeOffsetSec: 3600 }, /time offset is not supported/);
    await bad({ ...base, SourceName: "" }, /SourceName/);
    await bad({ ...base, SourceID: "a/b" }, /SourceID/);
    await bad({ SourceID: "v", SourceName: "V" }, /CSVSettings/);

    // As pygidata sends it: numbers as strings, extra fields, SessionID read back.
    const vendor = await open({
      Type: "csv",
      SourceID: "",
      SourceName: "Vendor",
      MeasID: "",
      SessionTimeoutSec: "300",
      AddTimeSeries: "false",
      SampleRate: "-1",
      AutoCreateMetaData: "true",
      CSVSettings: { ...COMMA, NameRowIndex: "0", UnitRowIndex: -1, ValuesStartRowIndex: 1, ValuesStartColumnIndex: 1, DateTimeFmtColumn1: "%Y-%m-%d %H:%M:%S.%F", DateTimeFmtColumn2: "", DateTimeFmtColumn3: "" },
      RetentionTimeSec: 0,
      Target: "stream",
      TimeOffsetSec: 0,
    });
    expect(vendor.status, JSON.stringify(vendor.body)).toBe(200);
    const id = vendor.body.Data.SessionID;
    expect(vendor.body.Data).toMatchObject({ SessionId: id, TimeoutSec: 300, SourceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await chunk(id, "datetime,x\n2025-01-01 00:00:00.000000,1\n2025-01-01 00:00:00.000500,2\n")).status).toBe(200);
    const closed = await close(id);
    expect(closed.status).toBe(200);
    expect(closed.body.Data).toMatchObject({ SampleRateHz: 2000, Rows: 2, SourceId: vendor.body.Data.SourceId, Name: "Import 2025-01-01T00:00:00.000Z" });
  });

  it("needs ManageProject and keeps each session to the user who opened it", async () => {
    const viewer = (await addUser(lg.url, admin, "viewer1", "Viewer")).token;
    const operator = (await addUser(lg.url, admin, "operator1", "Operator")).token;
    const params = { CSVSettings: SEMI, SourceID: "perm", SourceName: "Perm" };
    expect((await open(params, viewer)).status).toBe(403);
    expect((await call("POST", "/history/data/import", params, null)).status).toBe(401);
    const opened = await open(params, operator);
    expect(opened.status).toBe(200);
    const id = opened.body.Data.SessionId;
    expect((await chunk(id, "x", viewer)).status).toBe(403);
    expect((await close(id, viewer)).status).toBe(403);
    // Admin holds ManageProject too, but the session is the operator's.
    expect((await chunk(id, "x", admin)).status).toBe(404);
    expect((await close(id, admin)).status).toBe(404);
    expect((await chunk(id, "Date;Time;A\n;;V\n01.02.2025;00:00:00.0;1\n", operator)).status).toBe(200);
    const closed = await close(id, operator);
    expect(closed.status).toBe(200);
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "operator1" } }, admin);
    expect(audit.body.Messages.map((m: { Text: string }) => m.Text)).toContain(`Imported measurement ${closed.body.Data.Name} (1 rows)`);
  });

  it("expires idle sessions and bounds sessions, sources and chunks", async () => {
    const short = await open({ CSVSettings: SEMI, SourceID: "idle", SourceName: "Idle", SessionTimeoutSec: 1 });
    const id = short.body.Data.SessionId;
    expect((await chunk(id, "Date;Time;A\n;;V\n01.02.2025;00:00:00.0;1\n")).status).toBe(200);
    expect(spoolFiles().length).toBe(2);
    await sleep(1400);
    expect((await chunk(id, "01.02.2025;00:00:01.0;1\n")).status).toBe(404);
    expect((await close(id)).status).toBe(404);
    expect(spoolFiles()).toEqual([]);
    expect((await sources()).some((s) => s.Id === "idle")).toBe(false);

    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await open({ CSVSettings: SEMI, SourceID: `many-${i}`, SourceName: "Many" });
      expect(res.status).toBe(200);
      ids.push(res.body.Data.SessionId);
    }
    const ninth = await open({ CSVSettings: SEMI, SourceID: "many-8", SourceName: "Many" });
    expect(ninth.status).toBe(503);
    expect(ninth.body.ReturnState).toMatchObject({ Value: -12 });
    const same = await close(ids.pop()!);
    // Closing a session that received nothing cancels it.
    expect(same.body.Data).toMatchObject({ MeasurementId: null, Rows: 0 });
    const twice = await open({ CSVSettings: SEMI, SourceID: "many-0", SourceName: "Many" });
    expect(twice.status).toBe(409);
    for (const s of ids) expect((await close(s)).status).toBe(200);
    expect((await sources()).some((s) => s.Id.startsWith("many-"))).toBe(false);

    // A chunk declared larger than 256 MiB is refused before a byte is read.
    const big = await open({ CSVSettings: SEMI, SourceID: "big", SourceName: "Big" });
    const bigId = big.body.Data.SessionId;
    const declared = await rawPost(`/history/data/import/${bigId}`, { "Content-Length": String(300 * 1024 * 1024) }, null);
    expect(declared.status).toBe(413);
    expect((await close(bigId)).status).toBe(200);
  });

  it("receives one chunk at a time per session", async () => {
    const opened = await open({ CSVSettings: SEMI, SourceID: "busy", SourceName: "Busy" });
    const id = opened.body.Data.SessionId;
    let finish!: (text: string) => void;
    const slow = rawPost(`/history/data/import/${id}`, { "Transfer-Encoding": "chunked" }, (write, end) => {
      write("Date;Time;A\n;;V\n01.02.2025;00:00:00.0;1\n");
      finish = end;
    });
    await sleep(100);
    const second = await chunk(id, "01.02.2025;00:00:01.0;2\n");
    expect(second.status).toBe(409);
    expect((await close(id)).status).toBe(409);
    finish("01.02.2025;00:00:01.0;2\n");
    expect((await slow).status).toBe(200);
    const closed = await close(id);
    expect(closed.body.Data).toMatchObject({ Rows: 2, SampleRateHz: 1 });
  });

  it("refuses to import into a source acquired live", async () => {
    const sim = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 500 } });
    try {
      const token = (await login(sim.url, "admin", ADMIN_PASSWORD)).access;
      const list = await (await fetch(`${sim.url}/history/structure/sources`, { headers: { Authorization: `Bearer ${token}` } })).json();
      const res = await fetch(`${sim.url}/history/data/import`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ CSVSettings: SEMI, SourceID: list.Data[0].Id, SourceName: "x" }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).ReturnState).toMatchObject({ Value: -3, Description: expect.stringMatching(/acquired live/) });
    } finally {
      await sim.stop();
    }
  });

  it("keeps an import across a restart", async () => {
    const { closed } = await importCsv({ CSVSettings: COMMA, SourceID: "durable", SourceName: "Durable" }, "t,x [bar]\n2022-06-01 12:00:00.000000,1.25\n2022-06-01 12:00:00.020000,2.5\n");
    expect(closed.status).toBe(200);
    const d = closed.body.Data;
    await lg.close();
    lg = await start({ dataDir: lg.dataDir });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    expect((await sources()).find((s) => s.Id === "durable")).toMatchObject({ SampleRateHz: 50, Variables: [d.Variables[0].Id] });
    expect(await readBack("durable", [d.Variables[0].Id], d.MeasurementId)).toEqual([[1.25, 2.5]]);
  });

  /** A POST through node:http, for what fetch cannot do (a false Content-Length, a body sent in two steps). */
  function rawPost(
    path: string,
    headers: Record<string, string>,
    body: ((write: (s: string) => void, end: (s: string) => void) => void) | null,
  ): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = request(`${lg.url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${admin}`, ...headers } }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null });
          req.destroy();
        });
      });
      req.on("error", reject);
      if (body) body((s) => req.write(s), (s) => req.end(s));
      else req.flushHeaders();
    });
  }
});

describe("date-time patterns", () => {
  /** Epoch µs of a text read with a pattern (in a zone), or why not. */
  const us = (text: string, pattern: string, zone: string | null = null) => {
    const ms = parseDateTime(pattern, text, zone ? zoneOffset(zone) : null, "auto");
    return typeof ms === "string" ? ms : Math.round(ms * 1000);
  };
  const utc = (...parts: [number, number, number, number?, number?, number?, number?]) => Date.UTC(...parts) * 1000;

  it("reads the contract's and the vendor's notations", () => {
    expect(us("2025-03-04 10:11:12.345678", "%Y-%m-%d %H:%M:%S.%%0us")).toBe(utc(2025, 2, 4, 10, 11, 12) + 345678);
    expect(us("04.03.2025 10:11:12.5", "%d.%m.%Y %H:%M:%S.%%0us")).toBe(utc(2025, 2, 4, 10, 11, 12, 500));
    expect(us("11.10.2019 13:00:00.000001", "%d.%m.%Y %H:%M:%S.%F")).toBe(utc(2019, 9, 11, 13) + 1);
    expect(us("11.10.2019 13:00:00.123456789", "%d.%m.%Y %H:%M:%S.%%0us")).toBe(utc(2019, 9, 11, 13) + 123457);
    expect(us("2019-10-11 13:00:00", "%F %T")).toBe(utc(2019, 9, 11, 13));
    expect(us("2019-284T13:00:00.25+0200", "%Y-%jT%T.%%3us%z")).toBe(utc(2019, 9, 11, 11, 0, 0, 250));
    expect(us("8/14/2010 10:38:00 AM", "%m/%d/%Y %I:%M:%S %p")).toBe(utc(2010, 7, 14, 10, 38));
    expect(us("8/14/2010 12:38:00 am", "%m/%d/%Y %I:%M:%S %p")).toBe(utc(2010, 7, 14, 0, 38));
    expect(us("8/14/2010 12:38:00 PM", "%m/%d/%Y %I:%M:%S %p")).toBe(utc(2010, 7, 14, 12, 38));
    expect(us("2025-03-04T10:11:12.250+01:00", "%Y-%m-%dT%H:%M:%S.%%3us%:z")).toBe(utc(2025, 2, 4, 9, 11, 12, 250));
    expect(us("2025-03-04T10:11:12Z", "%Y-%m-%dT%H:%M:%S%z", "Europe/Berlin")).toBe(utc(2025, 2, 4, 10, 11, 12));
    expect(us("Tue, 4 Mar 25 10:11", "%a, %e %b %y %H:%M")).toBe(utc(2025, 2, 4, 10, 11));
    expect(us("1741083072.5", "%s.%F")).toBe(1741083072500000);
    expect(us("100%", "%Y-%m-%d")).toMatch(/expected/);
    // Wall times in a zone, across the spring-forward night.
    expect(us("2025-03-30 01:30:00", "%Y-%m-%d %H:%M:%S", "Europe/Berlin")).toBe(utc(2025, 2, 30, 0, 30));
    expect(us("2025-03-30 03:30:00", "%Y-%m-%d %H:%M:%S", "Europe/Berlin")).toBe(utc(2025, 2, 30, 1, 30));
    expect(us("2025-03-30 03:30:00 extra", "%Y-%m-%d %H:%M:%S")).toBe("unexpected text after the pattern");
    expect(us("2024-02-29 00:00:00", "%Y-%m-%d %H:%M:%S")).toBe(utc(2024, 1, 29));
    expect(us("2025-02-29 00:00:00", "%Y-%m-%d %H:%M:%S")).toBe("day 29 out of range");
  });

  it("formats what it reads, so an export's DateTimeFormat can use it", () => {
    const t = utc(2025, 2, 4, 9, 5, 7) + 45679;
    const fmt = (p: string, off = 0) => formatDateTime(compileDateTimeFormat(p, "auto"), t, off);
    expect(fmt("%Y-%m-%d %H:%M:%S.%%0us")).toBe("2025-03-04 09:05:07.045679");
    expect(fmt("%d.%m.%Y %H:%M:%S.%%0us", 60)).toBe("04.03.2025 10:05:07.045679");
    expect(fmt("%d.%m.%Y %H:%M:%S.%F")).toBe("04.03.2025 09:05:07.045679");
    expect(fmt("%H:%M:%S.%%3us %z", -90)).toBe("07:35:07.045 -0130");
    expect(fmt("%FT%T%:z %j", 60)).toBe("2025-03-04T10:05:07+01:00 063");
    expect(formatDateTime(compileDateTimeFormat("%F", "date"), t)).toBe("2025-03-04");
    expect(formatDateTime(compileDateTimeFormat("%F", "fraction"), t)).toBe("045679");
    expect(fmt("%I:%M %p, %A %e %B %y, 100%%")).toBe("09:05 AM, Tuesday  4 March 25, 100%");
    for (const p of ["%Y-%m-%d %H:%M:%S.%%0us", "%d.%m.%Y %H:%M:%S.%F", "%m/%d/%Y %I:%M:%S.%%0us %p"]) {
      expect(us(fmt(p), p)).toBe(t);
    }
    expect(() => compileDateTimeFormat("%Y-%")).toThrow(/lone %/);
    expect(() => new DateTimeParser(["%H:%M:%S"])).toThrow(/no full date/);
    expect(() => new DateTimeParser(["%Y-%m-%d %I:%M"])).toThrow(/%p/);
  });

  it("reads numbers as Number() does, to the same float32", () => {
    const read = (s: string, dec = ".") => readNumber(new TextEncoder().encode(s), 0, new TextEncoder().encode(s).length, dec.charCodeAt(0));
    for (const s of ["0", "-0.5", "+3", "1e3", "1.5E-3", "123456789012345678", "0.1", "3.4028235e38", "1.4e-45", "7.", ".25", "  42  ", "0.000000000000000000000000000123"]) {
      expect(read(s), s).toBe(Math.fround(Number(s)));
    }
    expect(read("1,25", ",")).toBe(1.25);
    expect(read("")).toBeNaN();
    expect(read("   ")).toBeNaN();
    // The vendor's files and pandas write NaN for a gap.
    for (const s of ["NaN", "nan", " NAN "]) expect(read(s), s).toBeNaN();
    for (const s of ["1,25", "abc", "1e", "-", "1.2.3", "NaNa", "-NaN", "Infinity", "1e39", "0x10", "1 2"]) expect(read(s), s).toBe(Number.POSITIVE_INFINITY);
    let seed = 1;
    for (let i = 0; i < 20000; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const s = (((seed / 2 ** 32) - 0.5) * 10 ** ((seed % 40) - 20)).toPrecision(1 + (seed % 17));
      expect(read(s), s).toBe(Math.fround(Number(s)));
    }
  });
});

describe("writing spooled rows to the store", () => {
  it("holds SQLite's page cache small while imports write and gives it back its size after the last one", async () => {
    const dir = tempDir();
    const store = new SeriesStore(dir);
    try {
      const cache = () => (store.db.prepare("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
      const before = cache();
      // b writes 1.6 M values (a flush and a turn for others half-way), a only 10 k: a starts
      // and ends while b writes, so the cache must stay small until b is done.
      const imports = [
        { id: "b", rows: 200_000, width: 8 },
        { id: "a", rows: 10_000, width: 1 },
      ].map(({ id, rows, width }) => {
        store.defineSource({ Id: id, Name: id, PeriodUs: 1000 });
        const ids = Array.from({ length: width }, (_, c) => store.defineVariable({ Id: `${id}-${c}`, SourceId: id, Name: `v${c}`, Unit: "" }).Id);
        const spool = new ImportSpool(join(dir, "spool"), id);
        for (let i = 0; i < rows; i++) spool.add(1_700_000_000_000_000 + i * 1000, i + 2, new Float32Array(width).fill(i));
        return { id, spool, ids };
      });
      const placed = await Promise.all(imports.map((x) => placeRows(x.spool, 1000, 0)));
      const seen: Record<string, number> = {};
      await Promise.all(
        imports.map(async (x, k) => {
          await writeRows(store, x.spool, placed[k]!, x.ids);
          seen[x.id] = cache();
          x.spool.remove();
        }),
      );
      expect(seen).toEqual({ a: -2048, b: before });
      expect(cache()).toBe(before);
      const part = store.partsOf(store.variable("b-7")!)[0]!;
      expect([part.vs.first, part.vs.end]).toEqual([1_700_000_000_000, 1_700_000_000_000 + 200_000]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
