import { describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, rpc, start } from "./helpers.ts";

// Issue 15 §4: the default dashboard of a fresh install keeps every active alarm in sight,
// acknowledged ones included (an alarm list that is not limited to unacknowledged alarms).
describe("seeded default dashboard", () => {
  it("carries an alarm list of all active alarms", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 7 } });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const list = (await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List as Array<{ ID: string; IsDefault: boolean }>;
      const home = list.find((d) => d.IsDefault)!;
      const { Content } = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: home.ID }, admin)).body.Dashboard;
      const alarms = (Content.Widgets as Array<{ Type: string; Variables: string[]; Options: { OnlyUnacknowledged?: boolean } }>).filter((w) => w.Type === "alarms");
      expect(alarms).toHaveLength(1);
      expect(alarms[0]!.Variables).toEqual([]);
      expect(alarms[0]!.Options.OnlyUnacknowledged).toBe(false);
    } finally {
      await lg.stop();
    }
  });
});
