import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, login, rpc, sleep, start, type TestLogger } from "./helpers.ts";

// What the console needs from the logger to tell the truth when things go wrong (issue 26): who
// stopped acquisition and when (ProjectAPI.GetState's ChangedBy), the last value of a variable
// that has none now (/online/data's LastValues), and where alarm rules' limits lie for anyone who
// sees the variable's chart (AlarmAPI.GetLimits).

let lg: TestLogger;
let admin: string;
let viewer: string;
let oil: string;
let pressure: string;

async function online(ids: string[]) {
  const res = await fetch(`${lg.url}/online/data`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify({ Variables: ids }) });
  return ((await res.json()) as { Data: { Values: (number | null)[]; Timestamps: (number | null)[]; LastValues: (number | null)[]; LastTimestamps: (number | null)[] } }).Data;
}

beforeAll(async () => {
  lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 } });
  admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  viewer = (await addUser(lg.url, admin, "watcher", "Viewer")).token;
  const vars = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()) as { Data: { Id: string; Name: string }[] };
  oil = vars.Data.find((v) => v.Name === "Oil temperature")!.Id;
  pressure = vars.Data.find((v) => v.Name === "Oil pressure")!.Id;
});
afterAll(() => lg.stop());

describe("acquisition stopped: who, when, and the values it left", () => {
  it("says who stopped and started the project, and keeps each variable's last value and its time", async () => {
    let state = (await rpc(lg.url, "ProjectAPI.GetState", {}, viewer)).body.State;
    expect(state).toMatchObject({ Running: true, ChangedBy: null });
    // A sample or two first, so there is a last value.
    for (let i = 0; i < 50 && (await online([oil])).Values[0] === null; i++) await sleep(50);
    const before = Date.now();
    expect((await rpc(lg.url, "ProjectAPI.Stop", {}, admin)).status).toBe(200);
    state = (await rpc(lg.url, "ProjectAPI.GetState", {}, viewer)).body.State;
    expect(state).toMatchObject({ Running: false, ChangedBy: "admin" });
    expect(state.Since).toBeGreaterThanOrEqual(before - 1000);

    const data = await online([oil, pressure]);
    // No current value while stopped (as the contract says) …
    expect(data.Values).toEqual([null, null]);
    // … but the last one, with its own sample time from before the stop.
    for (const k of [0, 1]) {
      expect(typeof data.LastValues[k]).toBe("number");
      expect(data.LastTimestamps[k]).toBeLessThanOrEqual(state.Since + 1);
      expect(data.LastTimestamps[k]).toBeGreaterThan(before - 60_000);
    }
    await sleep(300);
    // The last value does not move while stopped.
    expect((await online([oil])).LastValues[0]).toBe(data.LastValues[0]);

    expect((await rpc(lg.url, "ProjectAPI.Start", {}, admin)).status).toBe(200);
    expect((await rpc(lg.url, "ProjectAPI.GetState", {}, viewer)).body.State).toMatchObject({ Running: true, ChangedBy: "admin" });
  });

  it("finds who stopped it in the audit log after a restart", async () => {
    expect((await rpc(lg.url, "ProjectAPI.Stop", {}, admin)).status).toBe(200);
    await lg.close();
    const again = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 }, dataDir: lg.dataDir });
    try {
      const token = (await login(again.url, "admin", ADMIN_PASSWORD)).access;
      expect((await rpc(again.url, "ProjectAPI.GetState", {}, token)).body.State).toMatchObject({ Running: false, ChangedBy: "admin" });
      await rpc(again.url, "ProjectAPI.Start", {}, token);
    } finally {
      await again.close();
    }
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 }, dataDir: lg.dataDir });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    viewer = (await login(lg.url, "watcher", "user-pass-123")).access;
  });
});

describe("AlarmAPI.GetLimits", () => {
  it("gives the limits of limit rules to any signed-in caller, by variable", async () => {
    const add = (Rule: object) => rpc(lg.url, "AlarmAPI.AddRule", { Rule }, admin);
    expect((await add({ Name: "Oil hot", VariableId: oil, Type: "high", Severity: "critical", High: 95 })).status).toBe(200);
    expect((await add({ Name: "Oil band", VariableId: oil, Type: "range", Severity: "medium", High: 90, Low: 40 })).status).toBe(200);
    expect((await add({ Name: "Pressure low", VariableId: pressure, Type: "low", Severity: "low", Low: 0.5 })).status).toBe(200);
    expect((await add({ Name: "Oil fast", VariableId: oil, Type: "rate", Severity: "high", RatePerSec: 5 })).status).toBe(200);
    expect((await add({ Name: "Oil off", VariableId: oil, Type: "high", Severity: "high", High: 120, InService: false })).status).toBe(200);

    // A Viewer may not read the rules themselves, but may see where the limits lie.
    expect((await rpc(lg.url, "AlarmAPI.GetRules", {}, viewer)).status).toBe(403);
    const all = await rpc(lg.url, "AlarmAPI.GetLimits", {}, viewer);
    expect(all.status).toBe(200);
    const byName = Object.fromEntries((all.body.Limits as { Name: string }[]).map((l) => [l.Name, l]));
    expect(Object.keys(byName).sort()).toEqual(["Oil band", "Oil hot", "Pressure low"]);
    expect(byName["Oil hot"]).toEqual({ RuleID: expect.any(Number), Name: "Oil hot", VariableId: oil, Type: "high", Severity: "critical", High: 95, Low: null });
    expect(byName["Oil band"]).toMatchObject({ High: 90, Low: 40, Severity: "medium" });
    expect(byName["Pressure low"]).toMatchObject({ High: null, Low: 0.5 });

    const some = await rpc(lg.url, "AlarmAPI.GetLimits", { VariableIds: [pressure] }, viewer);
    expect((some.body.Limits as { Name: string }[]).map((l) => l.Name)).toEqual(["Pressure low"]);
    expect((await rpc(lg.url, "AlarmAPI.GetLimits", {})).status).toBe(401);
  });
});
