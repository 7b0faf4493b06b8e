import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// AnnotationAPI (issue 28): List/Add/Set/Remove, who may do what, validation and the audit.

const T0 = Date.UTC(2026, 10, 27, 14, 0);
const MIN = 60_000;

describe("AnnotationAPI", () => {
  let lg: TestLogger;
  let admin: string;
  let operator: { id: number; token: string };
  let colleague: { id: number; token: string };
  let viewer: string;
  let vars: string[];

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 1, benchChannels: 4 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    operator = await addUser(lg.url, admin, "olga", "Operator");
    colleague = await addUser(lg.url, admin, "carlo", "Operator");
    viewer = (await addUser(lg.url, admin, "vera", "Viewer")).token;
    const res = await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } });
    vars = ((await res.json()) as { Data: { Id: string }[] }).Data.map((v) => v.Id);
  });
  afterAll(() => lg.stop());

  const add = (a: object, token = operator.token) => rpc(lg.url, "AnnotationAPI.Add", { Annotation: a }, token);
  const list = (p: object, token = viewer) => rpc(lg.url, "AnnotationAPI.List", p, token);

  it("adds a note at a time and a span, and lists those that touch a range", async () => {
    const point = await add({ Start: T0 + 5 * MIN, Text: "Changed injector", Tags: ["maintenance", "maintenance", "injector"] });
    expect(point.status).toBe(200);
    const span = await add({ Start: T0 + 20 * MIN, End: T0 + 40 * MIN, Text: "Warm-up run\nsecond line", Variables: [vars[0]] });
    expect(span.status).toBe(200);
    const got = await list({ Start: T0, End: T0 + 30 * MIN });
    expect(got.status).toBe(200);
    expect(got.body.Total).toBe(2);
    expect(got.body.Annotations).toEqual([
      { ID: point.body.ID, Start: T0 + 5 * MIN, End: T0 + 5 * MIN, Text: "Changed injector", Tags: ["maintenance", "injector"], Variables: [], Author: "olga", Created: expect.any(String), Updated: expect.any(String), Version: 1 },
      expect.objectContaining({ ID: span.body.ID, Start: T0 + 20 * MIN, End: T0 + 40 * MIN, Text: "Warm-up run\nsecond line", Variables: [vars[0]], Author: "olga" }),
    ]);
    // A range that only overlaps the span's end, and one that ends exactly at the point.
    expect((await list({ Start: T0 + 39 * MIN, End: T0 + 50 * MIN })).body.Annotations.map((a: { ID: number }) => a.ID)).toEqual([span.body.ID]);
    expect((await list({ Start: T0, End: T0 + 5 * MIN })).body.Annotations.map((a: { ID: number }) => a.ID)).toEqual([point.body.ID]);
    expect((await list({ Start: T0 + 41 * MIN, End: T0 + 60 * MIN })).body.Annotations).toEqual([]);
    // A variable filter keeps notes about those variables and notes about none in particular.
    expect((await list({ Start: T0, End: T0 + 60 * MIN, Variables: [vars[1]] })).body.Annotations.map((a: { ID: number }) => a.ID)).toEqual([point.body.ID]);
    expect((await list({ Start: T0, End: T0 + 60 * MIN, Variables: [vars[0]] })).body.Total).toBe(2);
    expect((await list({ Start: T0, End: T0 + 60 * MIN, Limit: 1 })).body).toMatchObject({ Total: 2, Annotations: [{ ID: point.body.ID }] });
  });

  it("validates what is added", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ Start: T0, Text: "  " }, /Annotation\.Text: Text must not be empty/],
      [{ Start: T0, End: T0 - 1, Text: "x" }, /Annotation\.End: Must not be before Start/],
      [{ Start: -5, Text: "x" }, /Annotation\.Start/],
      [{ Start: T0, Text: "x", Variables: ["no-such-variable"] }, /Unknown variable no-such-variable/],
      [{ Start: T0, Text: "a\u200bb" }, /invisible/],
      [{ Start: T0, Text: "x".repeat(2001) }, /at most 2000/],
      [{ Start: T0, Text: "x", Tags: ["y".repeat(41)] }, /at most 40/],
    ];
    for (const [a, pattern] of cases) {
      const res = await add(a);
      expect(res.status, JSON.stringify(a).slice(0, 60)).toBe(400);
      expect(res.body.ReturnState.Description).toMatch(pattern);
    }
    expect((await list({ Start: T0 + MIN, End: T0 })).status).toBe(400);
  });

  it("needs UseMetaData to add, a reading permission to list", async () => {
    expect((await add({ Start: T0, Text: "viewer note" }, viewer)).status).toBe(403);
    const nobody = await rpc(lg.url, "GI.system/UserManagementAPI.AddRole", { Role: { Name: "Nothing", Permissions: [] } }, admin);
    await rpc(lg.url, "GI.system/UserManagementAPI.AddUser", { User: { Username: "nemo", Role: nobody.body.ID, MustChangePassword: false }, Password: "nemo-pass-123" }, admin);
    const nemo = (await login(lg.url, "nemo", "nemo-pass-123")).access;
    expect((await list({ Start: T0, End: T0 + MIN }, nemo)).status).toBe(403);
    expect((await rpc(lg.url, "AnnotationAPI.List", { Start: T0, End: T0 + MIN })).status).toBe(401);
  });

  it("lets only the author change a note; a stale Version is a 409", async () => {
    const { body } = await add({ Start: T0 + 100 * MIN, End: T0 + 110 * MIN, Text: "Mine" });
    const set = (a: object, token = operator.token) => rpc(lg.url, "AnnotationAPI.Set", { Annotation: { ID: body.ID, ...a } }, token);
    const other = await set({ Text: "Theirs" }, colleague.token);
    expect(other.status).toBe(403);
    expect(other.body.ReturnState).toMatchObject({ Code: "annotationNotAuthor", Args: { author: "olga" } });
    // Not even an administrator edits someone else's words.
    expect((await set({ Text: "Admin's" }, admin)).status).toBe(403);
    const moved = await set({ Version: 1, Start: T0 + 200 * MIN, Tags: ["moved"] });
    expect(moved.body).toMatchObject({ Version: 2 });
    const now = (await list({ Start: T0 + 200 * MIN, End: T0 + 200 * MIN })).body.Annotations[0];
    // Moved without an End: the span keeps its length.
    expect(now).toMatchObject({ Start: T0 + 200 * MIN, End: T0 + 210 * MIN, Text: "Mine", Tags: ["moved"], Version: 2 });
    expect((await set({ Version: 1, Text: "late" })).status).toBe(409);
    expect((await set({ Version: 2, Tags: ["moved"] })).body).toMatchObject({ Version: 2 });
  });

  it("lets the author or an administrator remove a note, nobody else", async () => {
    const { body } = await add({ Start: T0 + 300 * MIN, Text: "Remove me" });
    const other = await rpc(lg.url, "AnnotationAPI.Remove", { ID: body.ID }, colleague.token);
    expect(other.status).toBe(403);
    expect(other.body.ReturnState.Code).toBe("annotationNotAllowed");
    expect((await rpc(lg.url, "AnnotationAPI.Remove", { ID: body.ID }, admin)).status).toBe(200);
    expect((await rpc(lg.url, "AnnotationAPI.Remove", { ID: body.ID }, admin)).status).toBe(404);
    const own = await add({ Start: T0 + 301 * MIN, Text: "Own" });
    expect((await rpc(lg.url, "AnnotationAPI.Remove", { ID: own.body.ID }, operator.token)).status).toBe(200);
  });

  it("audits every change", async () => {
    const { body } = await add({ Start: T0 + 400 * MIN, Text: "Audited note" });
    await rpc(lg.url, "AnnotationAPI.Set", { Annotation: { ID: body.ID, Text: "Audited note, changed" } }, operator.token);
    await rpc(lg.url, "AnnotationAPI.Remove", { ID: body.ID }, admin);
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 10 }, admin)).body;
    const texts = Messages.map((m: { Sender: string; Text: string }) => `${m.Sender}: ${m.Text}`);
    expect(texts).toContain(`olga: Added annotation ${body.ID} at ${new Date(T0 + 400 * MIN).toISOString()}: "Audited note"`);
    expect(texts).toContain(`olga: Changed annotation ${body.ID}: Text`);
    expect(texts).toContain(`admin: Removed annotation ${body.ID} by olga at ${new Date(T0 + 400 * MIN).toISOString()}: "Audited note, changed"`);
  });
});
