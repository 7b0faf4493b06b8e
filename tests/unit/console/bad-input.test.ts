import { parseWithZod } from "@conform-to/zod/v4";
import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { annotationFormSchema } from "~/schemas/annotations";
import { configSchema } from "~/schemas/config";
import { createSchema } from "~/schemas/dashboards";
import { metaEntrySchema } from "~/schemas/metadata";
import { roleSchema } from "~/schemas/roles";
import { ruleSchema, targetSchema } from "~/schemas/rules";
import { INVISIBLE_CHARACTERS } from "~/schemas/visibleText";
import { vncTargetSchema } from "~/schemas/vnc";
import { formBodyMiddleware } from "~/services/formBody.server";
import { readOffset, readSince } from "~/services/forms.server";
import { sortRows } from "~/ui/SortHeader";

const status = (f: () => unknown) => {
  try {
    f();
    return 200;
  } catch (error) {
    // data() thrown by a loader: React Router answers its status.
    const init = (error as { init?: { status?: number } }).init;
    return isRouteErrorResponse(error) ? error.status : (init?.status ?? 500);
  }
};

describe("readOffset", () => {
  it("reads absent and whole offsets", () => {
    expect(readOffset(null)).toBe(0);
    expect(readOffset("")).toBe(0);
    expect(readOffset("150")).toBe(150);
  });
  it("answers 400 for numbers no page has, instead of passing Infinity on", () => {
    for (const v of ["1e309", "-1", "1.5", "abc", "1e10", "NaN", "Infinity"]) expect(status(() => readOffset(v)), v).toBe(400);
  });
});

describe("readSince", () => {
  it("reads a log position; absent, empty or no number is the start", () => {
    expect(readSince(null)).toBe(0);
    expect(readSince("")).toBe(0);
    expect(readSince("abc")).toBe(0);
    expect(readSince("-5")).toBe(0);
    expect(readSince("1234.7")).toBe(1234);
    expect(readSince(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });
  it("answers 400 for a position no log reaches, which the logger refuses (a 500 before)", () => {
    for (const v of ["1e308", "9999999999999999999999", "Infinity"]) expect(status(() => readSince(v)), v).toBe(400);
  });
});

describe("names with invisible characters", () => {
  const errors = (schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return parseWithZod(form, { schema }).reply().error ?? {};
  };
  // A zero-width space, a line break, a bidi mark, a NUL: each makes names look alike or breaks lines.
  const HIDDEN = ["\u200b", "\n", "\u202e", "\u0000"];
  it("are refused next to the name's own field, with the translated words, on every name form", () => {
    for (const h of HIDDEN) {
      const name = `Line${h}1`;
      expect(errors(roleSchema, { name }).name, "role").toContain(INVISIBLE_CHARACTERS);
      expect(errors(createSchema, { name }).name, "dashboard").toContain(INVISIBLE_CHARACTERS);
      expect(errors(vncTargetSchema, { name, host: "127.0.0.1", port: "5900" }).name, "VNC target").toContain(INVISIBLE_CHARACTERS);
      expect(errors(metaEntrySchema, { key: name, value: "x" }).key, "metadata key").toContain(INVISIBLE_CHARACTERS);
      expect(errors(ruleSchema, { name }).name, "rule").toContain(INVISIBLE_CHARACTERS);
      expect(errors(targetSchema, { type: "webhook", name, url: "https://example.com/" }).name, "target").toContain(INVISIBLE_CHARACTERS);
      expect(errors(configSchema, { projectName: name, revision: "0" }).projectName, "project").toContain(INVISIBLE_CHARACTERS);
      expect(errors(annotationFormSchema, { start: "1", text: "note", tags: `ok, ${name}` }).tags, "tag").toContain(INVISIBLE_CHARACTERS);
    }
  });
  it("leave plain names alone, and a note its line breaks", () => {
    expect(errors(roleSchema, { name: "Operatori turno B" }).name).toBeUndefined();
    expect(errors(createSchema, { name: "Linea 1 — forno" }).name).toBeUndefined();
    expect(errors(annotationFormSchema, { start: "1", text: "first line\r\nsecond line" }).text).toBeUndefined();
    expect(errors(annotationFormSchema, { start: "1", text: "a\u200bb" }).text).toContain(INVISIBLE_CHARACTERS);
  });
  it("say a tag too long where the form shows it (on the tags, not on one item of them)", () => {
    expect(errors(annotationFormSchema, { start: "1", text: "note", tags: `ok, ${"x".repeat(41)}` }).tags).toContain("annotations.errors.tag");
  });
});

describe("formBodyMiddleware", () => {
  const run = async (body: string, type: string) => {
    const request = new Request("http://console.test/settings", { method: "POST", body, headers: { "Content-Type": type } });
    let reached = false;
    const next = async () => {
      reached = true;
      // The action still reads the body itself.
      await request.formData();
      return new Response("ok");
    };
    const middleware = formBodyMiddleware as unknown as (args: { request: Request }, next: () => Promise<Response>) => Promise<Response>;
    return { status: await middleware({ request }, next).then((r) => r.status, (e) => status(() => { throw e; })), reached };
  };
  it("answers 400 for a body that claims to be a form and is none", async () => {
    expect(await run("garbage", "multipart/form-data; boundary=abc")).toEqual({ status: 400, reached: false });
  });
  it("lets forms through to the action, which can still read them", async () => {
    expect(await run("a=1&b=2", "application/x-www-form-urlencoded")).toEqual({ status: 200, reached: true });
    const multipart = "--abc\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--abc--\r\n";
    expect(await run(multipart, "multipart/form-data; boundary=abc")).toEqual({ status: 200, reached: true });
  });
});

describe("sortRows", () => {
  const rows = [{ name: "b" }, { name: "a" }, { name: "c" }];
  const columns = { name: (r: { name: string }) => r.name };
  it("sorts by a column it has, and by the fallback for a name it has not — Object's own members included", () => {
    expect(sortRows(rows, new URLSearchParams("sort=name&dir=desc"), columns, "name").map((r) => r.name)).toEqual(["c", "b", "a"]);
    for (const sort of ["__proto__", "constructor", "hasOwnProperty", "valueOf", "nope"]) {
      expect(sortRows(rows, new URLSearchParams({ sort }), columns, "name").map((r) => r.name), sort).toEqual(["a", "b", "c"]);
    }
  });
});
