import { describe, expect, it } from "vitest";
import en from "~/locales/en";
import itTexts from "~/locales/it";

// Every text exists in both languages (the browser loads only one, so there is no fallback),
// and interpolations name the same values.
function leaves(node: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof node === "string") out.set(prefix, node);
  else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) for (const [p, s] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, s);
  return out;
}
const plural = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(plural, "");

describe("locales", () => {
  const e = leaves(en);
  const i = leaves(itTexts);
  it("merge every screen file under its name", () => {
    expect(e.get("nav.dashboard")).toBeTruthy();
    expect([...e.keys()].some((k) => k.startsWith("dashboards."))).toBe(true);
  });
  it("have the same keys in en and it (plural forms aside)", () => {
    const eKeys = new Set([...e.keys()].map(base));
    const iKeys = new Set([...i.keys()].map(base));
    expect([...eKeys].filter((k) => !iKeys.has(k))).toEqual([]);
    expect([...iKeys].filter((k) => !eKeys.has(k))).toEqual([]);
  });
  it("interpolate the same values in both", () => {
    const vars = (s: string) => [...s.matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort();
    const differ = [...e].filter(([k, s]) => i.has(k) && JSON.stringify(vars(s)) !== JSON.stringify(vars(i.get(k)!))).map(([k]) => k);
    expect(differ).toEqual([]);
  });
});
