import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { formBodyMiddleware } from "~/services/formBody.server";
import { readOffset } from "~/services/forms.server";
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
