import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { exportSchema } from "~/schemas/export";

// The export action parses its form with conform: errors keyed by field (shown next to it).
const parse = (entries: [string, string][]) => {
  const form = new FormData();
  for (const [k, v] of entries) form.append(k, v);
  return parseWithZod(form, { schema: exportSchema });
};
const errorsOf = (s: ReturnType<typeof parse>) => (s.status === "error" ? s.error : null);

describe("export form parsing", () => {
  it("takes one or several variables", () => {
    const one = parse([["v", "a"], ["interval", "1"]]);
    expect(one.status).toBe("success");
    expect(one.status === "success" && one.value.v).toEqual(["a"]);
    const two = parse([["v", "a"], ["v", "b"], ["interval", "2.5"], ["mode", "resampled"], ["bom", "on"]]);
    expect(two.status === "success" && two.value).toMatchObject({ v: ["a", "b"], interval: 2.5, mode: "resampled", bom: "on" });
  });
  it("names the field of each error with the translation key", () => {
    const none = parse([["interval", "1"]]);
    expect(none.status).toBe("error");
    expect(errorsOf(none)).toEqual({ v: ["history.export.noVariables"] });
    const bad = parse([["v", "a"], ["interval", "0"]]);
    expect(errorsOf(bad)).toEqual({ interval: ["history.export.intervalInvalid"] });
    const empty = parse([["v", "a"], ["interval", ""]]);
    expect(errorsOf(empty)).toEqual({ interval: ["history.export.intervalInvalid"] });
  });
});
