import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, coreWaitMeter, HISTORY_HOOK_MS, login, rpc, sleep, start, waitForHistory } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

type Var = { Id: string; Name: string; Unit: string; Direction: string; DataFormat: string; SourceId: string; DeviceId: string; SampleRateHz: number };

describe("data API over HTTP (simulator on)", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;
  let vars: Var[];
  const byName = (n: string) => vars.find((v) => v.Name === n)!;

  async function call(method: string, path: string, body?: unknown, token: string | null = admin, raw?: string) {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`${lg.url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null };
  }
  const history = (body: Record<string, unknown>, token = admin) => call("POST", "/history/data", body, token);
  const ref = (v: Var) => ({ SID: v.SourceId, VID: v.Id });

  beforeAll(async () => {
    // One user may hold all 100 public streams here: the per-user cap has its own tests (live-caps.test.ts).
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 }, live: { perUser: 1000 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    viewer = (await addUser(lg.url, admin, "watcher", "Viewer")).token;
    vars = (await call("GET", "/online/structure/variables")).body.Data;
    // Some tests read the last second or two of the bench's and the meter's history: wait until it exists.
    await waitForHistory(lg.url, admin, 2, { variables: ["Oil temperature", "Active power"] });
  }, HISTORY_HOOK_MS);
  afterAll(() => lg.stop());

  it("lists the rig's variables and sources in the real logger's shapes", async () => {
    expect(vars).toHaveLength(16 + 12 + 4 + 6);
    expect(byName("Oil temperature")).toMatchObject({ Unit: "°C", DataFormat: "FLOAT", Direction: "I", SampleRateHz: 100, Index: 0 });
    expect(vars.filter((v) => v.Direction === "O")).toHaveLength(4);
    expect(Object.keys(vars[0]!).sort()).toEqual(
      ["Id", "Name", "Unit", "DataFormat", "Direction", "Index", "IndexIn", "IndexOut", "Precision", "RangeMin", "RangeMax", "DeviceId", "ModuleId", "SourceId", "SampleRateHz"].sort(),
    );
    // Positions among inputs and among outputs, -1 where a variable is not one.
    const outputs = vars.filter((v) => v.Direction === "O") as unknown as { IndexIn: number; IndexOut: number }[];
    expect(outputs.map((v) => [v.IndexIn, v.IndexOut])).toEqual([[-1, 0], [-1, 1], [-1, 2], [-1, 3]]);
    const inputs = vars.filter((v) => v.Direction === "I") as unknown as { IndexIn: number; IndexOut: number }[];
    expect(inputs.map((v) => v.IndexIn)).toEqual(inputs.map((_, i) => i));
    expect(inputs.every((v) => v.IndexOut === -1)).toBe(true);
    // A second-old newest sample is allowed the time this process (test and logger) waited for a core.
    const waited = coreWaitMeter();
    const sources = (await call("GET", "/history/structure/sources")).body.Data;
    expect(sources).toHaveLength(3);
    const bench = sources.find((s: { SampleRateHz: number }) => s.SampleRateHz === 100);
    expect(bench.Variables).toHaveLength(28);
    expect(sources.map((s: { Index: number }) => s.Index)).toEqual([0, 1, 2]);
    const perSource = (await call("GET", `/history/structure/sources/${bench.Id}/variables`)).body.Data;
    expect(perSource.map((v: { Id: string }) => v.Id)).toEqual(bench.Variables);
    expect(perSource[0]).toMatchObject({ Name: "Oil temperature", Index: 0, Unit: "°C", DataFormat: "FLOAT" });
    expect((await call("GET", "/buffer/structure/sources/nope/variables")).status).toBe(404);
    expect(Date.now() - bench.LastTimeStamp).toBeLessThan(1000 + waited());
    expect(bench.AvailableTimeSec).toBeGreaterThan(0);
    expect((await call("GET", "/buffer/structure/sources")).body.Data).toHaveLength(3);
    expect((await call("GET", "/online/structure/variables", undefined, null)).status).toBe(401);
  });

  it("reads online values and lets only ManageProject write outputs", async () => {
    const oil = byName("Oil temperature");
    const horn = byName("Horn");
    const read = await call("POST", "/online/data", { Variables: [oil.Id, horn.Id], Function: "read" }, viewer);
    expect(read.status).toBe(200);
    expect(read.body.Success).toBe(true);
    expect(read.body.Data.Values[0]).toBeGreaterThan(50);
    expect(read.body.Data.Timestamps[0]).toBeGreaterThan(Date.now() - 2000);

    const denied = await call("POST", "/online/data", { Variables: [horn.Id], Function: "write", Values: [1] }, viewer);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ Success: false, ReturnState: { Value: -3 } });
    const input = await call("POST", "/online/data", { Variables: [oil.Id], Function: "write", Values: [1] });
    expect(input.status).toBe(400);
    expect(input.body.ReturnState.Description).toMatch(/input/);
    expect((await call("POST", "/online/data", { Variables: [horn.Id], Function: "write", Values: [2] })).status).toBe(400);

    const wrote = await call("POST", "/online/data", { Variables: [horn.Id], Function: "write", Values: [true] });
    expect(wrote.status).toBe(200);
    expect((await call("POST", "/online/data", { Variables: [horn.Id] })).body.Data.Values).toEqual([1]);
    // The written state is what the output's samples record from then on — read from the write
    // on, until they are stored: on PostgreSQL under load the last 100 ms after a fixed 150 ms
    // wait held no sample yet (a CI run, 2026-12-01).
    const writtenAt = Date.now();
    const recorded = async (): Promise<(number | null)[]> => {
      const res = await history({ Start: writtenAt, Variables: [ref(horn)] });
      // Within the same millisecond End (now) is not after Start yet: nothing recorded so far.
      if (res.status === 400 && Date.now() <= writtenAt + 1) return [];
      return res.body.Data[0].TimeSeries.Values[0].filter((v: number | null) => v !== null);
    };
    await expect.poll(async () => (await recorded()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(new Set(await recorded())).toEqual(new Set([1]));
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" } }, admin);
    expect(audit.body.Messages.map((m: { Text: string }) => m.Text)).toContain("Set output Horn = 1");
  });

  it("answers Points queries with min, mean and max per bucket", async () => {
    const oil = byName("Oil temperature");
    const res = await history({ Start: -2000, End: 0, Variables: [ref(oil), ref(byName("Active power"))], Points: 50 }, viewer);
    expect(res.status).toBe(200);
    const ts = res.body.Data[0].TimeSeries;
    expect(ts.Size).toBeLessThanOrEqual(50);
    expect(ts.Values).toHaveLength(2);
    expect(ts.Delta).toBeGreaterThan(0);
    for (let k = 0; k < ts.Size; k++) {
      if (ts.Values[0][k] === null) continue;
      expect(ts.Min[0][k]).toBeLessThanOrEqual(ts.Values[0][k]);
      expect(ts.Max[0][k]).toBeGreaterThanOrEqual(ts.Values[0][k]);
    }
    expect(ts.Values[0].filter((v: number | null) => v !== null).length).toBeGreaterThan(ts.Size / 2);
    // Raw: one value per sample, no Min/Max; absolute adds the time of every value.
    const raw = await history({ Start: -300, Variables: [ref(oil)], Type: "absolute" });
    const r = raw.body.Data[0].TimeSeries;
    expect(r.Delta).toBe(10);
    expect(r.Min).toBeUndefined();
    expect(r.Timestamps).toHaveLength(r.Size);
    expect(r.Timestamps[1] - r.Timestamps[0]).toBe(10);
  });

  it("refuses bad input with a JSON error, never a crash or a silent empty answer", async () => {
    const oil = ref(byName("Oil temperature"));
    const cases: Array<[unknown, number, number]> = [
      [{ Start: -1000, Variables: [{ SID: oil.SID, VID: "nope" }] }, 404, -4],
      [{ Start: -1000, Variables: [{ SID: "nope", VID: oil.VID }] }, 404, -4],
      [{ Start: 2000, End: 1000, Variables: [oil] }, 400, -6],
      [{ Start: -1000, Variables: [oil], Points: 0 }, 400, -6],
      [{ Start: -1000, Variables: [oil], Points: 100_001 }, 400, -6],
      [{ Start: "NaN", Variables: [oil] }, 400, -6],
      [{ Start: -1000, Variables: [] }, 400, -6],
      [{ Start: -1000, Variables: [oil], TimeZone: "Mars/Olympus" }, 400, -6],
      [{ Start: -10 * 86400_000, Variables: [oil] }, 400, -6],
      [{ Start: Date.now() - 200 * 86400_000, End: Date.now() - 100 * 86400_000, Variables: [oil], Points: 10 }, 400, -6],
    ];
    for (const [body, status, value] of cases) {
      const res = await history(body as Record<string, unknown>);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      expect(res.body).toMatchObject({ Success: false, ReturnState: { Value: value } });
      expect(res.body.ReturnState.Description.length).toBeGreaterThan(5);
    }
    const bad = await call("POST", "/history/data", undefined, admin, "{not json");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ Success: false, ReturnState: { Value: -6 } });
    expect((await call("POST", "/online/data", { Variables: ["nope"] })).status).toBe(404);
    expect((await call("GET", "/history/data")).status).toBe(405);
    expect((await call("GET", "/history/nothing-here")).status).toBe(404);
    expect((await history({ Start: -1000, Variables: [oil] }, "garbage")).status).toBe(401);
  });

  it("streams CSV with a header and one line per sample", async () => {
    const oil = byName("Oil temperature");
    const volts = byName("Voltage L1");
    const res = await fetch(`${lg.url}/history/data`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Start: -1000, Variables: [ref(oil), ref(volts)], Format: "csv", TimeZone: "Europe/Rome" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    // Without CSVSettings: the contract's defaults (";", ".", "datetime", "%Y-%m-%d %H:%M:%S.%%0us").
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("datetime;Oil temperature [°C];Voltage L1 [V]");
    expect(lines.length).toBeGreaterThanOrEqual(95);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6};-?\d+(\.\d+)?;(\d+(\.\d+)?)?$/);
    // The 1 Hz voltage fills one row in a hundred; the rest are empty cells.
    expect(lines.slice(1).filter((l) => !l.endsWith(";")).length).toBeLessThanOrEqual(2);
  });

  it("pushes live values over Server-Sent Events and limits concurrent streams", async () => {
    const oil = byName("Oil temperature");
    const ac = new AbortController();
    const res = await fetch(`${lg.url}/online/stream?variables=${oil.Id},${byName("Horn").Id}`, {
      headers: { Authorization: `Bearer ${viewer}` },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const events: Array<{ t: number; values: Record<string, number | null> }> = [];
    while (events.length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const parts = text.split("\n\n");
      text = parts.pop()!;
      for (const p of parts) if (p.startsWith("data: ")) events.push(JSON.parse(p.slice(6)));
    }
    ac.abort();
    expect(events).toHaveLength(3);
    expect(events[2]!.t).toBeGreaterThan(events[1]!.t);
    expect(events[2]!.t - events[1]!.t).toBeGreaterThanOrEqual(200);
    expect(typeof events[2]!.values[oil.Id]).toBe("number");

    expect((await fetch(`${lg.url}/online/stream?variables=${oil.Id}`)).status).toBe(401);
    expect((await fetch(`${lg.url}/online/stream?variables=nope`, { headers: { Authorization: `Bearer ${admin}` } })).status).toBe(404);

    const many = new AbortController();
    const open = await Promise.all(
      Array.from({ length: 100 }, () => fetch(`${lg.url}/online/stream?variables=${oil.Id}`, { headers: { Authorization: `Bearer ${admin}` }, signal: many.signal })),
    );
    expect(open.every((r) => r.status === 200)).toBe(true);
    const refused = await fetch(`${lg.url}/online/stream?variables=${oil.Id}`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(refused.status).toBe(503);
    many.abort();
  });

  it("lists devices and runs measurements, one at a time, with metadata", async () => {
    const devices = (await rpc(lg.url, "DeviceAPI.GetDevices", {}, viewer)).body.Devices;
    expect(devices.map((d: { Name: string }) => d.Name)).toEqual(["Test bench controller", "Power meter", "Weather station"]);
    expect(devices[0]).toMatchObject({ Type: "Controller", Connected: true, Location: { Lat: expect.any(Number), Lon: expect.any(Number) }, SampleRateHz: 100 });
    expect(devices[0].Modules.map((m: { Name: string }) => m.Name)).toEqual(["Analog inputs", "Digital I/O"]);
    expect(devices[0].LastHeartbeat).toBeGreaterThan(Date.now() - 1000);

    expect((await rpc(lg.url, "MeasurementAPI.Start", { Name: "Nope" }, viewer)).status).toBe(403);
    const started = await rpc(lg.url, "MeasurementAPI.Start", { Name: "Run A", MetaData: [{ Key: "Operator", Value: "Ada" }] }, admin);
    expect(started.status).toBe(200);
    const m = started.body.Measurement;
    expect(m).toMatchObject({ Name: "Run A", End: null, SourceId: devices[0].SourceId, MetaData: [{ Key: "Operator", Value: "Ada" }] });
    expect(m.Variables).toHaveLength(28);
    const twice = await rpc(lg.url, "MeasurementAPI.Start", { Name: "Run B" }, admin);
    expect(twice.body.ReturnState.Value).toBe(-3);
    const st = (await rpc(lg.url, "ProjectAPI.GetState", {}, viewer)).body.State;
    expect(st).toMatchObject({ Running: true, Measurement: { ID: m.ID } });
    expect(typeof st.ProjectName).toBe("string");
    expect((await call("DELETE", `/history/structure/measurements/${m.ID}`)).status).toBe(400);
    await sleep(20);
    const stopped = (await rpc(lg.url, "MeasurementAPI.Stop", {}, admin)).body.Measurement;
    expect(stopped.End).toBeGreaterThan(stopped.Start);
    expect((await rpc(lg.url, "MeasurementAPI.Stop", {}, admin)).body.ReturnState.Value).toBe(-3);

    const measurements = `/history/structure/sources/${m.SourceId}/measurements`;
    // The simulator stores a tick's samples at once (every 100 ms, later under load): wait until
    // the continuous recording has passed the stop, so the whole run is stored.
    const list = async () => (await call("GET", `${measurements}?Start=${m.Start - 1000}&Limit=5&AddMeasMetaData=true`, undefined, viewer)).body.Data;
    let listed = await list();
    for (let i = 0; i < 100 && !(listed[1]?.LastTimeStamp >= stopped.End); i++) {
      await sleep(50);
      listed = await list();
    }
    // Newest first: Run A, then the source's continuous recording (all it stored, still going).
    expect(listed).toEqual([
      expect.objectContaining({ Id: m.ID, Name: "Run A", Kind: "Measurement", AbsoluteStart: m.Start, SourceId: m.SourceId, SampleRateHz: 100, Index: 0, MetaData: [{ Key: "Operator", Value: "Ada" }] }),
      expect.objectContaining({ Id: m.SourceId, Name: "Test bench controller (continuous)", Kind: "Continuous", End: null, SourceId: m.SourceId, Index: 1, MetaData: [] }),
    ]);
    expect(listed[0].Variables).toEqual(m.Variables);
    // Its last sample: the last point of the 10 ms grid before the (exclusive) stop.
    expect(listed[0].LastTimeStamp).toBe((Math.ceil(stopped.End / 10) - 1) * 10);
    expect(listed[1].AbsoluteStart).toBeLessThan(m.Start);
    expect(listed[1].LastTimeStamp).toBeGreaterThan(m.Start);
    const mapped = (await call("POST", measurements, { Order: "ASC", AddVarMapping: true, Measurements: [m.ID] })).body.Data;
    expect(mapped[0].Variables[0]).toEqual(expect.objectContaining({ Id: m.Variables[0], Name: "Oil temperature", Direction: "I", IndexIn: 0, IndexOut: -1, RangeMin: expect.any(Number), RangeMax: expect.any(Number), Type: "Analog" }));
    expect(mapped[0].MetaData).toBeUndefined();
    expect((await call("POST", measurements, { Measurements: ["other"] })).body.Data).toEqual([]);
    expect((await call("POST", measurements, { Order: "sideways" })).status).toBe(400);
    const none = (await call("POST", measurements, { End: 1000 })).body.Data;
    expect(none).toEqual([]);
    const continuous = await history({ Start: 0, End: 0, Variables: [{ ...ref(byName("Oil temperature")), Selector: `mid:${m.SourceId}` }], Points: 10 });
    expect(continuous.body.Data[0].TimeSeries).toMatchObject({ MeasurementId: m.SourceId, Updating: true });
    // Start is the first value's time (the first bucket's, aligned to the rollups): the family's client indexes value k at Start + k × Delta.
    const cts = continuous.body.Data[0].TimeSeries;
    expect(cts.Start).toBe(cts.AbsoluteStart);
    expect(cts.Start).toBeLessThanOrEqual(listed[1].AbsoluteStart);
    expect(cts.Start + cts.Delta).toBeGreaterThan(listed[1].AbsoluteStart);

    // A measurement selector reads exactly its own range; an unknown one is 404, never other data.
    const own = await history({ Start: 0, End: 0, Variables: [{ ...ref(byName("Oil temperature")), Selector: `mid:${m.ID}` }] });
    expect(own.status).toBe(200);
    // Start: the first sample's time, the first point of the 10 ms grid at or after the measurement's start.
    expect(own.body.Data[0].TimeSeries).toMatchObject({ MeasurementId: m.ID, Start: Math.ceil(m.Start / 10) * 10, End: stopped.End, Updating: false, Type: "equidistant", Format: "json" });
    const viaPath = await call("POST", `/history/data/${m.SourceId}`, { MID: m.ID, Variables: [byName("Oil temperature").Id] });
    expect(viaPath.body.Data[0].TimeSeries.Values).toEqual(own.body.Data[0].TimeSeries.Values);
    const unknown = await history({ Start: 0, End: 0, Variables: [{ ...ref(byName("Oil temperature")), Selector: "mid:nope" }] });
    expect([unknown.status, unknown.body.ReturnState.Value]).toEqual([404, -4]);
    const elsewhere = await history({ Start: 0, End: 0, Variables: [{ ...ref(byName("Active power")), Selector: `mid:${m.ID}` }] });
    expect(elsewhere.status).toBe(404);
    expect((await call("POST", `/history/structure/measurements/${m.ID}/metadata`, { MetaData: [{ Key: "Bench", Value: "2" }] }, viewer)).status).toBe(403);
    const meta = await call("POST", `/history/structure/measurements/${m.ID}/metadata`, { MetaData: [{ Key: "Bench", Value: "2" }, { Key: "Operator", Value: "" }] });
    expect(meta.body.Data.MetaData).toEqual([{ Key: "Bench", Value: "2" }]);
    expect((await call("DELETE", `/history/structure/measurements/${m.ID}`, undefined, viewer)).status).toBe(403);
    expect((await call("DELETE", `/history/structure/measurements/${m.ID}`)).status).toBe(200);
    expect((await call("DELETE", `/history/structure/measurements/${m.ID}`)).status).toBe(404);
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" } }, admin);
    const texts = audit.body.Messages.map((x: { Text: string }) => x.Text);
    expect(texts).toEqual(expect.arrayContaining(["Started measurement Run A", "Stopped measurement Run A", "Deleted measurement Run A"]));
  });

  it("sets a source's retention (ManageProject) and refuses ranges beyond it", async () => {
    const power = byName("Active power");
    expect((await rpc(lg.url, "DeviceAPI.SetRetention", { SourceId: power.SourceId, RetentionSec: 3600 }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "DeviceAPI.SetRetention", { SourceId: "nope", RetentionSec: 3600 }, admin)).status).toBe(404);
    const set = await rpc(lg.url, "DeviceAPI.SetRetention", { SourceId: power.SourceId, RetentionSec: 3600 }, admin);
    expect(set.body).toMatchObject({ SourceId: power.SourceId, RetentionSec: 3600 });
    const old = await history({ Start: Date.now() - 3 * 3600_000, End: Date.now() - 2 * 3600_000, Variables: [ref(power)], Points: 10 });
    expect(old.status).toBe(400);
    expect(old.body.ReturnState.Description).toMatch(/oldest data/);
    expect((await history({ Start: -3 * 3600_000, Variables: [ref(power)], Points: 10 })).status).toBe(200);
  });

  it("stops and restarts acquisition: samples stop, a gap remains", async () => {
    const oil = byName("Oil temperature");
    expect((await rpc(lg.url, "ProjectAPI.Stop", {}, viewer)).status).toBe(403);
    const stopped = await rpc(lg.url, "ProjectAPI.Stop", {}, admin);
    expect(stopped.body.State.Running).toBe(false);
    const last = async () =>
      (await call("GET", "/history/structure/sources")).body.Data.find((s: { Id: string }) => s.Id === oil.SourceId).LastTimeStamp;
    const t0 = await last();
    expect((await call("POST", "/online/data", { Variables: [oil.Id] })).body.Data.Values).toEqual([null]);
    await sleep(300);
    expect(await last()).toBe(t0);
    expect((await rpc(lg.url, "MeasurementAPI.Start", { Name: "While stopped" }, admin)).body.ReturnState.Value).toBe(-3);
    expect((await rpc(lg.url, "ProjectAPI.Start", {}, admin)).body.State.Running).toBe(true);
    await sleep(200);
    expect(await last()).toBeGreaterThan(t0 + 250);
    const res = await history({ Start: t0 - 100, End: t0 + 500, Variables: [ref(oil)] });
    const values: (number | null)[] = res.body.Data[0].TimeSeries.Values[0];
    const gap = values.slice(15, 30);
    expect(gap.every((v) => v === null)).toBe(true);
    expect(values.slice(0, 5).every((v) => v !== null)).toBe(true);
  });
});
