import { describe, expect, it } from "vitest";
import { canonicalTarget } from "~/services/dateParams.server";

// The redirect that rewrites typed dates into the canonical query stays on the site.
describe("canonicalTarget", () => {
  const q = new URLSearchParams({ from: "2026-11-23T14:05" });
  it("keeps the page and rewrites the query", () => {
    expect(canonicalTarget("/analytics", q)).toBe("/analytics?from=2026-11-23T14%3A05");
    expect(canonicalTarget("/analytics.data", q)).toBe("/analytics?from=2026-11-23T14%3A05");
    expect(canonicalTarget("/_root", new URLSearchParams())).toBe("/");
  });
  it("never answers a protocol-relative target for a path with several leading slashes", () => {
    for (const p of ["//evil.example/x", "///evil.example", "//evil.example/x.data"]) {
      const target = canonicalTarget(p, q);
      expect(target.startsWith("/")).toBe(true);
      expect(target.startsWith("//")).toBe(false);
      expect(new URL(target, "https://console.example").host).toBe("console.example");
    }
  });
  it("goes through the one redirect decision: a path that normalises to another origin is not kept", () => {
    for (const p of ["/%2e%2e%2f%2fevil.example", "/a/..%2f%2fevil.example", "/%5Cevil.example", "/%252F%252Fevil.example"]) {
      expect(canonicalTarget(p, q), p).toBe("/");
    }
    // …while what a user typed into other fields (an encoded "%") stays as it was.
    const typed = new URLSearchParams({ text: "100%", from: "2026-11-23T14:05" });
    expect(canonicalTarget("/log", typed)).toBe("/log?text=100%25&from=2026-11-23T14%3A05");
  });
});
