import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, rpc, sleep, startWithAdmin } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const API = "GI.system/MessagingAPI";

describe("MessagingAPI", () => {
  let lg: TestLogger;
  let admin: string;
  const ids: number[] = [];
  let middle = "";
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
    for (let i = 0; i < 12; i++) {
      if (i === 6) {
        await sleep(15);
        middle = new Date().toISOString();
        await sleep(15);
      }
      const res = await rpc(
        lg.url,
        `${API}.PostMessage`,
        {
          Sender: i % 3 === 0 ? "Maintainer" : "Plant",
          Topic: "T",
          Type: i % 2 ? "Warning" : "Info",
          Text: `message ${i}`,
          Args: i % 3 === 0 ? ["Start"] : undefined,
        },
        admin,
      );
      ids.push(res.body.ID);
    }
  });
  afterAll(() => lg.stop());

  it("returns newest first with Total and the message fields", async () => {
    const res = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Topic: "T" } }, admin);
    expect(res.status).toBe(200);
    expect(res.body.Total).toBe(12);
    expect(res.body.Messages.map((m: { ID: number }) => m.ID)).toEqual([...ids].reverse());
    expect(res.body.Messages[0]).toEqual({
      ID: ids[11],
      Sender: "Plant",
      Topic: "T",
      Type: "Warning",
      Text: "message 11",
      Args: [],
      Fields: {},
      Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("filters by Sender and Type, treating empty strings as any", async () => {
    const maint = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Sender: "Maintainer", Topic: "", Type: "" }, From: "", To: "", Limit: 5000, Offset: 0 }, admin);
    expect(maint.body.Total).toBe(4);
    expect(maint.body.Messages.map((m: { Text: string }) => m.Text)).toEqual(["message 9", "message 6", "message 3", "message 0"]);
    expect(maint.body.Messages[0].Args).toEqual(["Start"]);
    const warnings = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Type: "Warning", Topic: "T" } }, admin);
    expect(warnings.body.Total).toBe(6);
    const both = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Type: "Info", Sender: "Maintainer" } }, admin);
    expect(both.body.Messages.map((m: { Text: string }) => m.Text)).toEqual(["message 6", "message 0"]);
  });

  it("filters by a case-insensitive substring of Text, with % and _ taken literally", async () => {
    const hit = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Text: "MESSAGE 1" } }, admin);
    expect(hit.body.Messages.map((m: { Text: string }) => m.Text)).toEqual(["message 11", "message 10", "message 1"]);
    expect((await rpc(lg.url, `${API}.GetMessages`, { Filter: { Text: "message%1" } }, admin)).body.Total).toBe(0);
    expect((await rpc(lg.url, `${API}.GetMessages`, { Filter: { Text: "_" } }, admin)).body.Total).toBe(0);
  });

  it("pages with Limit and Offset", async () => {
    const page = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Topic: "T" }, Limit: 5, Offset: 5 }, admin);
    expect(page.body.Total).toBe(12);
    expect(page.body.Messages.map((m: { ID: number }) => m.ID)).toEqual([...ids].reverse().slice(5, 10));
    const tail = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Topic: "T" }, Limit: 5, Offset: 10 }, admin);
    expect(tail.body.Messages).toHaveLength(2);
    expect((await rpc(lg.url, `${API}.GetMessages`, { Limit: 5001 }, admin)).status).toBe(400);
    expect((await rpc(lg.url, `${API}.GetMessages`, { Offset: -1 }, admin)).status).toBe(400);
  });

  it("filters by From and To", async () => {
    const after = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Topic: "T" }, From: middle }, admin);
    expect(after.body.Messages.map((m: { Text: string }) => m.Text).at(-1)).toBe("message 6");
    expect(after.body.Total).toBe(6);
    const before = await rpc(lg.url, `${API}.GetMessages`, { Filter: { Topic: "T" }, To: middle }, admin);
    expect(before.body.Total).toBe(6);
    expect(before.body.Messages[0].Text).toBe("message 5");
    expect((await rpc(lg.url, `${API}.GetMessages`, { From: "yesterday-ish" }, admin)).status).toBe(400);
  });

  it("validates PostMessage and needs ManageGlobalSettings for it", async () => {
    const bad = await rpc(lg.url, `${API}.PostMessage`, { Sender: "x", Topic: "T", Type: "Debug", Text: "t" }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toMatch(/^Invalid parameter Type:/);
    const viewer = await addUser(lg.url, admin, "vic", "Viewer");
    expect((await rpc(lg.url, `${API}.PostMessage`, { Sender: "x", Topic: "T", Type: "Info", Text: "t" }, viewer.token)).status).toBe(403);
    expect((await rpc(lg.url, `${API}.GetMessages`, {}, viewer.token)).status).toBe(200);
    expect((await rpc(lg.url, `${API}.GetMessages`, {})).status).toBe(401);
  });
});
