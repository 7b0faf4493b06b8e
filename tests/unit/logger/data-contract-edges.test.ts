import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, HISTORY_HOOK_MS, login, rpc, start, waitForHistory } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Edges of the data contract (LOGGER-API.md, "Data") found by the issue-13 audit: what an
// outside client of the family may send or meet that the other suites did not try.

type Json = any;

describe("data contract edges", () => {
  let lg: TestLogger;
  let admin: string;

  async function call(method: string, path: string, body?: unknown, raw?: string) {
    const res = await fetch(`${lg.url}${path}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as Json) : null };
  }

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    await waitForHistory(lg.url, admin, 1);
  }, HISTORY_HOOK_MS);
  afterAll(() => lg.stop());

  it("answers a malformed percent-encoding in a path with 400 -6, not an internal error", async () => {
    for (const [method, path] of [
      ["GET", "/history/structure/sources/%E0%A4%A/variables"],
      ["POST", "/buffer/structure/sources/%zz/measurements"],
      ["POST", "/history/data/%E0%A4%A"],
    ] as const) {
      const res = await call(method, path, method === "POST" ? { Variables: ["x"] } : undefined);
      expect([path, res.status, res.body?.ReturnState?.Value]).toEqual([path, 400, -6]);
      expect(res.body.ReturnState.Description).toMatch(/percent-encoding/);
    }
  });

  it("refuses times beyond the range of a date at once (End 1e300 with Points held the event loop forever)", async () => {
    const vars = (await call("GET", "/online/structure/variables")).body.Data as Json[];
    const oil = vars.find((v) => v.Name === "Oil temperature");
    const ref = { SID: oil.SourceId, VID: oil.Id };
    const answers = [
      await call("POST", "/history/data", { Start: 0, End: 1e300, Variables: [ref], Points: 10 }),
      await call("POST", "/buffer/data", { Start: -1e300, End: 0, Variables: [ref], Points: 10 }),
      await call("POST", "/history/statistics", { Start: 0, End: 1e300, Variables: [ref] }),
      await call("POST", `/history/structure/sources/${oil.SourceId}/measurements`, { End: 1e300 }),
    ];
    expect(answers.map((a) => [a.status, a.body?.ReturnState?.Value])).toEqual(Array(4).fill([400, -6]));
    expect(answers.every((a) => /within ±8640000000000000/.test(a.body.ReturnState.Description))).toBe(true);
    // The widest range a date allows still plans its buckets.
    expect((await call("POST", "/history/data", { Start: 0, End: 8.64e15, Variables: [ref], Points: 1 })).status).toBe(200);
  });

  it("refuses a NUL character in an id with 400 -6 (PostgreSQL could not even look it up)", async () => {
    const vars = (await call("GET", "/online/structure/variables")).body.Data as Json[];
    const oil = vars.find((v) => v.Name === "Oil temperature");
    const answers = [
      await call("POST", "/history/data", { Start: 0, End: 0, Variables: [{ SID: oil.SourceId, VID: oil.Id, Selector: "mid:\u0000x" }] }),
      await call("POST", `/history/structure/sources/${oil.SourceId}/measurements`, { Measurements: ["\u0000"] }),
      await call("GET", `/history/structure/sources/${oil.SourceId}/measurements?Measurements=%00`),
      await call("DELETE", "/history/structure/measurements/%00"),
    ];
    expect(answers.map((a) => [a.status, a.body?.ReturnState?.Value])).toEqual(Array(4).fill([400, -6]));
    expect(answers.every((a) => /NUL/.test(a.body.ReturnState.Description))).toBe(true);
  });

  it("refuses a NUL anywhere in an RPC body with 400 -6, deep in a dashboard or in a key, and stores nothing", async () => {
    const before = (await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List.length;
    const text = { ID: "t", Type: "text", X: 0, Y: 0, W: 3, H: 2, Variables: [], Options: { Text: "a\u0000b" } };
    const answers = [
      await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: "NUL inside", Content: { Range: "1h", Refresh: "off", Widgets: [text] } } }, admin),
      await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: "NUL key", "\u0000": 1 } }, admin),
      await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Text: "\u0000" } }, admin),
    ];
    expect(answers.map((a) => [a.status, a.body.ReturnState?.Value])).toEqual(Array(3).fill([400, -6]));
    expect(answers.every((a) => /NUL/.test(a.body.ReturnState.Description))).toBe(true);
    expect((await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List.length).toBe(before);
    // A backslash followed by "u0000" is text like any other, no NUL.
    const quoted = { ...text, Options: { Text: "\\u0000 is how JSON writes a NUL" } };
    expect((await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: "Quoted escape", Content: { Range: "1h", Refresh: "off", Widgets: [quoted] } } }, admin)).status).toBe(200);
  });

  it("takes optional parameters sent as null (Python's None) as absent", async () => {
    const vars = (await call("GET", "/online/structure/variables")).body.Data as Json[];
    const oil = vars.find((v) => v.Name === "Oil temperature");
    const measurements = `/history/structure/sources/${oil.SourceId}/measurements`;
    const plain = await call("POST", measurements, { AddVarMapping: true });
    expect(plain.body.Data.length).toBeGreaterThan(0);
    // End: null was read as End 0 (1970): an empty list, silently.
    const nulls = await call("POST", measurements, { Start: null, End: null, Limit: null, Order: null, Measurements: null, MeasMetaDataFilter: null, AddVarMapping: true, AddMeasMetaData: null });
    expect(nulls.status).toBe(200);
    expect(nulls.body.Data.map((m: Json) => m.Id)).toEqual(plain.body.Data.map((m: Json) => m.Id));

    const read = await call("POST", "/history/data", {
      Start: -1000,
      End: null,
      Variables: [{ SID: oil.SourceId, VID: oil.Id, Selector: null }],
      Points: null,
      Precision: null,
      TimeZone: null,
      TimeOffset: null,
      AddVarMapping: null,
      CSVSettings: null,
    });
    expect(read.status).toBe(200);
    expect(read.body.Data[0].TimeSeries).toMatchObject({ MeasurementId: "", Values: [expect.any(Array)] });
    const csv = await fetch(`${lg.url}/history/data`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Start: -200, Variables: [{ SID: oil.SourceId, VID: oil.Id }], Format: "csv", CSVSettings: { HeaderText: null, ColumnSeparator: ";", DecimalSeparator: "," } }),
    });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\r\n")[0]).toBe("datetime;Oil temperature [°C]");
    // A required parameter is still required.
    expect((await call("POST", "/history/data", { Start: -1000, Variables: null })).status).toBe(400);
  });
});

describe("a data source before its first sample (simulator off)", () => {
  let lg: TestLogger;
  let admin: string;
  const get = async (path: string) => {
    const res = await fetch(`${lg.url}${path}`, { headers: { Authorization: `Bearer ${admin}` } });
    return (await res.json()) as Json;
  };

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: false });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("lists numeric AbsoluteStart = LastTimeStamp, IO variables among inputs and outputs, and one Index per online variable", async () => {
    const v = (Name: string, Direction: string, Topic: string) => ({ VariableId: "", Name, Unit: "", RangeMin: 0, RangeMax: 10, Precision: 1, Direction, Address: { Topic, JsonPath: "", TimestampPath: "", Qos: 0 } });
    const add = async (Name: string, Variables: unknown[]) => {
      const added = await rpc(
        lg.url,
        "DataSourceAPI.Set",
        // Disabled: defined in the store, never connected, so no sample ever.
        { Source: { ID: -1, Name, Protocol: "mqtt", Enabled: false, PeriodMs: 100, Connection: { Url: "mqtt://127.0.0.1:1", Username: "", ClientId: "" }, Variables } },
        admin,
      );
      expect(added.status).toBe(200);
      return `ds${added.body.Source.ID}`;
    };
    const sid = await add("Idle cell", [v("Level", "I", "c/level"), v("Valve", "O", "c/valve"), v("Setpoint", "IO", "c/set"), v("Flow", "I", "c/flow")]);
    // A second source numbers its own variables from 0 again.
    await add("Idle pump", [v("Speed", "IO", "p/speed"), v("Trip", "I", "p/trip")]);

    for (const area of ["history", "buffer"]) {
      const src = (await get(`/${area}/structure/sources`)).Data.find((s: Json) => s.Id === sid);
      expect(src).toMatchObject({ Name: "Idle cell", Index: 0, SampleRateHz: 10, AvailableTimeSec: 0 });
      expect(typeof src.AbsoluteStart).toBe("number");
      expect(src.LastTimeStamp).toBe(src.AbsoluteStart);
      const vars = (await get(`/${area}/structure/sources/${sid}/variables`)).Data;
      expect(vars.map((x: Json) => [x.Name, x.Index, x.Unit, x.DataFormat])).toEqual([["Level", 0, "", "FLOAT"], ["Valve", 1, "", "FLOAT"], ["Setpoint", 2, "", "FLOAT"], ["Flow", 3, "", "FLOAT"]]);
    }

    const online = (await get("/online/structure/variables")).Data as Json[];
    expect(online.map((x) => [x.Name, x.Direction, x.Index, x.IndexIn, x.IndexOut])).toEqual([
      ["Level", "I", 0, 0, -1],
      ["Valve", "O", 1, -1, 0],
      ["Setpoint", "IO", 2, 1, 1],
      ["Flow", "I", 3, 2, -1],
      ["Speed", "IO", 4, 3, 2],
      ["Trip", "I", 5, 4, -1],
    ]);
    // No sample, so no continuous recording to list (and no null times in one).
    const listed = await fetch(`${lg.url}/history/structure/sources/${sid}/measurements`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Order: "Asc", AddVarMapping: true, AddMeasMetaData: true }),
    });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as Json).Data).toEqual([]);
  });
});
