import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUICK_RANGES, RANGES as CONSOLE_RANGES } from "../../../app/schemas/dashboardConstants.ts";
import { contentSchema, settingsSchema } from "../../../app/schemas/dashboards.ts";
import { RANGES as LOGGER_RANGES } from "../../../logger/api/dashboards.ts";
import { rpc, startWithAdmin } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// A dashboard's stored default range may be any quick range (15 min … 30 d); "5m", which the
// first dashboards were stored with, stays valid. The logger and the console check the same list.

const content = (Range: string) => ({ Columns: 12, RowHeight: 80, Range, Refresh: "30s", Widgets: [] });

describe("stored default ranges", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("the console and the logger allow the same ranges: every quick range and the old 5m", () => {
    expect([...LOGGER_RANGES]).toEqual([...CONSOLE_RANGES]);
    for (const r of [...QUICK_RANGES, "5m"]) expect(CONSOLE_RANGES).toContain(r);
  });

  it.each([...QUICK_RANGES, "5m"])("the logger stores and returns %s", async (range) => {
    const saved = await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: `Range ${range}`, Content: content(range) } }, admin);
    expect(saved.status).toBe(200);
    const got = await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: saved.body.ID }, admin);
    expect(got.body.Dashboard.Content.Range).toBe(range);
  });

  it("the logger refuses a range that is no preset", async () => {
    const saved = await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: "Range 2h", Content: content("2h") } }, admin);
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).toMatch(/Range/);
  });

  it("the console's schemas read and accept them too", () => {
    for (const range of [...QUICK_RANGES, "5m"]) {
      expect(contentSchema.safeParse(content(range)).success, range).toBe(true);
      expect(settingsSchema.safeParse({ name: "x", columns: 12, rowHeight: 80, range, refresh: "30s" }).success, range).toBe(true);
    }
    expect(settingsSchema.safeParse({ name: "x", columns: 12, rowHeight: 80, range: "2h", refresh: "30s" }).success).toBe(false);
  });
});
