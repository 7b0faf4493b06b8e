import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, HISTORY_HOOK_MS, addUser, login, rpc, sleep, start, waitForHistory } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// ConfigAPI.GetProjectConfig / SetProjectConfig against a real logger with the simulator.

type Channel = { VariableId: string; Index: number; Enabled: boolean; Name: string; Unit: string; RangeMin: number; RangeMax: number; Precision: number };
type Answer = { Config: { ProjectName: string; DeviceName: string; SampleRateHz: number; Channels: Channel[] }; SampleRates: number[]; Revision: number };

describe("ConfigAPI project config", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;

  const get = async (token = admin) => rpc(lg.url, "ConfigAPI.GetProjectConfig", {}, token);
  const set = async (config: Answer["Config"], revision?: number, token = admin) => {
    const { ProjectName, SampleRateHz, Channels } = config;
    return rpc(lg.url, "ConfigAPI.SetProjectConfig", { Config: { ProjectName, SampleRateHz, Channels: Channels.map(({ Index: _i, ...c }) => c) }, Revision: revision }, token);
  };
  async function rest(method: string, path: string, body?: unknown) {
    const res = await fetch(`${lg.url}${path}`, { method, headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  const current = async () => (await get()).body as Answer;

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    viewer = (await addUser(lg.url, admin, "watcher", "Viewer")).token;
    // The rate-change test reads the seconds before the change: wait until they exist.
    await waitForHistory(lg.url, admin, 2.5);
  }, HISTORY_HOOK_MS);
  afterAll(() => lg.stop());

  it("answers the project name, the bench rate and its 16 analog channels", async () => {
    const a = await get();
    expect(a.status).toBe(200);
    expect(a.body.Config).toMatchObject({ ProjectName: "Engine test cell", DeviceName: "Test bench controller", SampleRateHz: 100 });
    expect(a.body.Config.Channels).toHaveLength(16);
    expect(a.body.Config.Channels[0]).toMatchObject({ Index: 0, Enabled: true, Name: "Oil temperature", Unit: "°C", RangeMin: -20, RangeMax: 150, Precision: 1 });
    expect(a.body.SampleRates).toEqual([1, 10, 50, 100, 200, 500, 1000]);
    expect(a.body.Revision).toBe(0);
  });

  it("needs ManageProject to read or change it", async () => {
    expect((await get(viewer)).status).toBe(403);
    const a = await current();
    const refused = await set(a.Config, a.Revision, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.ReturnState.Description).toMatch(/ManageProject/);
  });

  it("refuses invalid configs with the field they are about, and changes nothing", async () => {
    const a = await current();
    const ch = (i: number, patch: Partial<Channel>) => ({ ...a.Config, Channels: a.Config.Channels.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
    const cases: Array<[Answer["Config"], RegExp]> = [
      [ch(1, { Name: "oil TEMPERATURE" }), /Config\.Channels\.1\.Name: Channel name oil TEMPERATURE is used twice/],
      [ch(2, { RangeMin: 10, RangeMax: 10 }), /Config\.Channels\.2\.RangeMax: RangeMin must be less than RangeMax/],
      [ch(3, { Name: "  " }), /Config\.Channels\.3\.Name: Must not be empty/],
      [ch(4, { Name: "x".repeat(65) }), /Config\.Channels\.4\.Name: At most 64 characters/],
      [ch(5, { Precision: 7 }), /Config\.Channels\.5\.Precision/],
      [ch(6, { Name: "Door closed" }), /Config\.Channels\.6\.Name: Door closed is already the name of another variable/],
      [{ ...a.Config, SampleRateHz: 123 }, /Config\.SampleRateHz: Must be one of 1, 10, 50, 100, 200, 500, 1000 Hz/],
      [{ ...a.Config, ProjectName: "" }, /Config\.ProjectName/],
      [{ ...a.Config, Channels: a.Config.Channels.slice(1) }, /give every analog input/],
    ];
    for (const [config, message] of cases) {
      const r = await set(config, a.Revision);
      expect(r.status, String(message)).toBe(400);
      expect(r.body.ReturnState.Description).toMatch(message);
    }
    expect(await current()).toEqual(a);
  });

  it("applies a change at once: names, units, a disabled channel, a new rate; one audit message each", async () => {
    const a = await current();
    const [oil, coolant] = a.Config.Channels;
    const changed = {
      ...a.Config,
      ProjectName: "Cell 7",
      SampleRateHz: 50,
      Channels: a.Config.Channels.map((c, i) => (i === 0 ? { ...c, Name: "Sump oil temperature", Unit: "K", RangeMin: 250, RangeMax: 420, Precision: 2 } : i === 1 ? { ...c, Enabled: false } : c)),
    };
    const before = Date.now();
    const r = await set(changed, a.Revision);
    // The new rate took effect somewhere in [before, applied]; on a loaded machine that span can
    // be hundreds of milliseconds, so the windows below are placed relative to both ends.
    const applied = Date.now();
    expect(r.status).toBe(200);
    expect(r.body.Revision).toBe(a.Revision + 1);
    expect(r.body.Config).toMatchObject({ ProjectName: "Cell 7", SampleRateHz: 50 });
    expect(r.body.Config.Channels[0]).toMatchObject({ VariableId: oil!.VariableId, Name: "Sump oil temperature", Unit: "K", RangeMin: 250, RangeMax: 420, Precision: 2 });
    expect(r.body.Config.Channels[1]).toMatchObject({ Enabled: false });

    // The data API shows it: same variable ID (history kept), new name and rate.
    const vars = (await rest("GET", "/online/structure/variables")).body.Data as Array<{ Id: string; Name: string; Unit: string; SampleRateHz: number; Precision: number }>;
    expect(vars.find((v) => v.Id === oil!.VariableId)).toMatchObject({ Name: "Sump oil temperature", Unit: "K", SampleRateHz: 50, Precision: 2 });
    const sources = (await rest("GET", "/history/structure/sources")).body.Data as Array<{ Id: string; SampleRateHz: number; Variables: string[] }>;
    const bench = sources.find((s) => s.Variables.includes(oil!.VariableId))!;
    expect(bench.SampleRateHz).toBe(50);
    expect((await rpc(lg.url, "ProjectAPI.GetState", {}, admin)).body.State.ProjectName).toBe("Cell 7");

    const ref = (id: string) => ({ SID: bench.Id, VID: id });
    // The simulator runs on timers: on a loaded machine it may be late, so wait for the samples
    // up to `applied` + 600 ms rather than a fixed time.
    for (let i = 0; i < 100; i++) {
      const probe = (await rest("POST", "/history/data", { Start: applied + 550, End: applied + 650, Variables: [ref(oil!.VariableId)] })).body.Data[0].TimeSeries;
      if (probe.Values[0].filter((v: number | null) => v !== null).length >= 5) break;
      await sleep(100);
    }
    // After the change: one sample every 20 ms; the disabled channel has none.
    const after = (await rest("POST", "/history/data", { Start: applied + 150, End: applied + 550, Variables: [ref(oil!.VariableId), ref(coolant!.VariableId)] })).body.Data[0].TimeSeries;
    expect(after.Delta).toBe(20);
    expect(after.Values[0].filter((v: number | null) => v !== null).length).toBeGreaterThanOrEqual(19);
    expect(after.Values[1].every((v: number | null) => v === null)).toBe(true);
    // Across the change: 10 ms grid; the old rate fills every slot, the new one every other.
    const across = (await rest("POST", "/history/data", { Start: before - 400, End: applied + 400, Variables: [ref(oil!.VariableId)] })).body.Data[0].TimeSeries;
    expect(across.Delta).toBe(10);
    const filled = across.Values[0].map((v: number | null) => v !== null);
    expect(filled.slice(0, 30).every(Boolean)).toBe(true);
    expect(filled.slice(-30).filter(Boolean).length).toBe(15);
    // Statistics and bucketed queries across the boundary count every sample exactly once.
    const stats = (await rest("POST", "/history/statistics", { Start: before - 2000, End: before + 600, Variables: [ref(oil!.VariableId)] })).body.Data.Statistics[0];
    const raw = (await rest("POST", "/history/data", { Start: before - 2000, End: before + 600, Variables: [ref(oil!.VariableId)] })).body.Data[0].TimeSeries;
    expect(stats.Count).toBe(raw.Values[0].filter((v: number | null) => v !== null).length);
    const buckets = (await rest("POST", "/history/data", { Start: before - 2000, End: before + 600, Points: 7, Variables: [ref(oil!.VariableId)] })).body.Data[0].TimeSeries;
    expect(Math.min(...buckets.Min[0].filter((v: number | null) => v !== null))).toBe(stats.Min);
    expect(Math.max(...buckets.Max[0].filter((v: number | null) => v !== null))).toBe(stats.Max);

    // CSV export across the change: one row per 10 ms slot, the new rate's samples every other row.
    const csv = await fetch(`${lg.url}/history/data`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Start: before - 400, End: applied + 400, Format: "csv", Variables: [ref(oil!.VariableId)], CSVSettings: { DateTimeFormat: "%s%%3us", ColumnSeparator: ",", DateTimeHeader: "time" } }),
    });
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("time,Sump oil temperature [K]");
    expect(lines.length - 1).toBe(across.Size);
    expect(lines.slice(1).filter((l) => l.split(",")[1] !== "").length).toBe(filled.filter(Boolean).length);

    const log = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "admin" }, Limit: 20 }, admin);
    const texts = log.body.Messages.map((m: { Text: string }) => m.Text);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Renamed the project from Engine test cell to Cell 7",
        "Changed the sample rate of Test bench controller from 100 Hz to 50 Hz",
        "Renamed channel Oil temperature to Sump oil temperature",
        'Changed the unit of channel Sump oil temperature from "°C" to "K"',
        "Changed the range of channel Sump oil temperature from -20 … 150 to 250 … 420",
        "Changed the precision of channel Sump oil temperature from 1 to 2",
        "Disabled channel Coolant inlet temperature",
      ]),
    );
  });

  it("keeps live values, the SSE stream and alarms going across a rate change", async () => {
    const a = await current();
    const [oil, coolant] = a.Config.Channels;
    const high = await rpc(lg.url, "AlarmAPI.AddRule", { Rule: { Name: "Sump impossible", VariableId: oil!.VariableId, Type: "high", High: -1e9, Severity: "low" } }, admin);
    const stale = await rpc(lg.url, "AlarmAPI.AddRule", { Rule: { Name: "Coolant silent", VariableId: coolant!.VariableId, Type: "stale", StaleSec: 0.3, Severity: "low" } }, admin);
    expect([high.status, stale.status]).toEqual([200, 200]);
    const r = await set({ ...a.Config, SampleRateHz: 200 }, a.Revision);
    expect(r.body.Config.SampleRateHz).toBe(200);
    const alarms = async () => (await rpc(lg.url, "AlarmAPI.GetAlarms", {}, admin)).body.Alarms as Array<{ ID: number; Active: boolean; Value: number | null }>;
    let seen: Array<{ ID: number; Active: boolean }> = [];
    for (let i = 0; i < 60; i++) {
      seen = await alarms();
      if (seen.filter((x) => [high.body.ID, stale.body.ID].includes(x.ID) && x.Active).length === 2) break;
      await sleep(100);
    }
    // The limit rule still sees the renamed channel's samples at 200 Hz; the disabled one goes stale.
    expect(seen.find((x) => x.ID === high.body.ID)).toMatchObject({ Active: true });
    expect(seen.find((x) => x.ID === stale.body.ID)).toMatchObject({ Active: true });

    const ctrl = new AbortController();
    const res = await fetch(`${lg.url}/online/stream?variables=${oil!.VariableId},${coolant!.VariableId}`, { headers: { Authorization: `Bearer ${admin}` }, signal: ctrl.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!/data: .*\n\n[\s\S]*data: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    ctrl.abort();
    const events = [...text.matchAll(/data: (.*)\n\n/g)].map((m) => JSON.parse(m[1]!) as { values: Record<string, number | null> });
    expect(events.at(-1)!.values[oil!.VariableId]).toEqual(expect.any(Number));
    expect(events.at(-1)!.values[coolant!.VariableId]).toBeNull();
  });

  it("answers 409 to an edit based on an old revision", async () => {
    const a = await current();
    const r = await set({ ...a.Config, ProjectName: "Someone else" }, a.Revision - 1);
    expect(r.status).toBe(409);
    expect(r.body.ReturnState.Description).toMatch(/changed by someone else meanwhile/);
    expect((await current()).Config.ProjectName).toBe(a.Config.ProjectName);
  });

  it("keeps the config over a restart", async () => {
    const a = await current();
    await lg.close();
    const again = await start({ dataDir: lg.dataDir, simulator: { seed: 5, tickMs: 50 } });
    try {
      const token = (await login(again.url, "admin", ADMIN_PASSWORD)).access;
      const b = (await rpc(again.url, "ConfigAPI.GetProjectConfig", {}, token)).body as Answer;
      expect(b).toEqual(a);
      await sleep(400);
      const res = await fetch(`${again.url}/online/data`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify({ Variables: [a.Config.Channels[0]!.VariableId, a.Config.Channels[1]!.VariableId] }) });
      const values = ((await res.json()) as { Data: { Values: (number | null)[] } }).Data.Values;
      expect(values[0]).not.toBeNull();
      expect(values[1]).toBeNull();
    } finally {
      await again.close();
      lg = { ...lg, close: async () => {}, stop: async () => {} } as TestLogger;
      const { rmSync } = await import("node:fs");
      rmSync(again.dataDir, { recursive: true, force: true });
    }
  });
});
