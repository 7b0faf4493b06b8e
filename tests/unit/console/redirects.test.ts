import { describe, expect, it } from "vitest";
import { bareUuid, isRememberable, safePath, startPagePath, withReturnPath } from "~/services/redirects";

describe("bareUuid", () => {
  it("accepts the 8-4-4-4-12 hex pattern in any case, with or without a trailing slash", () => {
    expect(bareUuid("/0b7e6a1c-1234-4abc-8def-0123456789ab")).toBe("0b7e6a1c-1234-4abc-8def-0123456789ab");
    expect(bareUuid("/0B7E6A1C-1234-4ABC-8DEF-0123456789AB/")).toBe("0B7E6A1C-1234-4ABC-8DEF-0123456789AB");
  });
  it("rejects everything else", () => {
    for (const p of ["/", "/dashboard", "/0b7e6a1c-1234-4abc-8def-0123456789a", "/0b7e6a1c-1234-4abc-8def-0123456789abc", "/x/0b7e6a1c-1234-4abc-8def-0123456789ab", "/0b7e6a1c12344abc8def0123456789ab", "/0b7e6a1g-1234-4abc-8def-0123456789ab"]) {
      expect(bareUuid(p), p).toBeNull();
    }
  });
});

describe("startPagePath", () => {
  const login = (permissions: string[]) => ({ loginRequired: true, permissions });
  it("maps device to /devices, then /cockpit, then /settings by permission", () => {
    expect(startPagePath("device", login(["ViewDevices", "ViewCockpit"]))).toBe("/devices");
    expect(startPagePath("device", login(["ViewCockpit"]))).toBe("/cockpit");
    expect(startPagePath("device", login([]))).toBe("/settings");
  });
  it("treats device as /devices when no login is required", () => {
    expect(startPagePath("device", { loginRequired: false, permissions: [] })).toBe("/devices");
  });
  it("sends any other value X to /X", () => {
    expect(startPagePath("dashboard", login([]))).toBe("/dashboard");
    expect(startPagePath("/analytics", login([]))).toBe("/analytics");
    expect(startPagePath(undefined, login(["ViewDevices"]))).toBe("/devices");
    expect(startPagePath("", login(["ViewDevices"]))).toBe("/devices");
  });
});

describe("safePath", () => {
  it("keeps same-origin paths with query and hash", () => {
    expect(safePath("/settings")).toBe("/settings");
    expect(safePath("/dashboard?id=1#top")).toBe("/dashboard?id=1#top");
  });

  // [target, expected]: null = refused; a string = the normalised path that is sent instead.
  const table: [string | null | undefined, string | null][] = [
    // plain paths, normalised
    ["/settings", "/settings"],
    ["/log?sender=Foo%20Bar&type=Warning", "/log?sender=Foo%20Bar&type=Warning"],
    ["/a/./b/../c", "/a/c"],
    ["/a/%2e/b", "/a/b"],
    ["/../../settings", "/settings"],
    ["/a?next=//evil.example", "/a?next=//evil.example"],
    ["/a%3F//evil.example", "/a%3F//evil.example"],
    // the query and hash are data: an encoded "%" there is kept, not decoded into a refusal
    ["/log?text=100%25", "/log?text=100%25"],
    ["/log?text=%25E0%25A4&from=2026-11-23T14%3A05", "/log?text=%25E0%25A4&from=2026-11-23T14%3A05"],
    ["/dashboard?id=1#50%25", "/dashboard?id=1#50%25"],
    ["/x%23/..//evil.example", null],
    ["/x%3F/..//evil.example", null],
    // schemes and other origins
    ["https://evil.example", null],
    ["http://console.invalid/settings", null],
    ["javascript:alert(1)", null],
    ["JaVaScRiPt:alert(1)", null],
    ["data:text/html,<script>alert(1)</script>", null],
    ["settings", null],
    ["", null],
    [null, null],
    [undefined, null],
    // protocol-relative and backslash forms
    ["//evil.example/x", null],
    ["///evil.example", null],
    ["/\\evil.example", null],
    ["\\\\evil.example", null],
    ["\\/evil.example", null],
    ["/a\\b", null],
    // dot segments that end in a double slash
    ["/a/..//evil.example", null],
    ["/x/../..//evil.example", null],
    ["/./..//evil.example", null],
    ["/.//evil.example", null],
    // encoded dots, slashes and backslashes
    ["/%2e%2e//evil.example", null],
    ["/%2E%2E/%2E%2E//evil.example", null],
    ["/%2F%2Fevil.example", null],
    ["/%2f/evil.example", null],
    ["/%5Cevil.example", null],
    ["/%5c%5cevil.example", null],
    ["/a/%2e%2e%2f%2fevil.example", null],
    ["/%252F%252Fevil.example", null],
    ["/%25252e%25252e//evil.example", null],
    ["/%E0%A4%A", null],
    // tabs, newlines and other controls (the URL parser drops tabs and newlines)
    ["/\t/evil.example", null],
    ["/\n/evil.example", null],
    ["/\r\n/evil.example", null],
    ["/%09/evil.example", null],
    ["/%0d%0aSet-Cookie:x=1", null],
    ["/\u0000/evil.example", null],
    ["\t//evil.example", null],
    ["/\u0085/evil.example", null],
    // overly long
    [`/${"a".repeat(16 * 1024)}`, null],
    [`/${"a".repeat(16 * 1024 - 1)}`, `/${"a".repeat(16 * 1024 - 1)}`],
  ];

  it.each(table.map(([target, expected]) => ({ target, expected })))("$target → $expected", ({ target, expected }) => {
    expect(safePath(target)).toBe(expected);
  });

  it("never answers a path a browser resolves to another origin", () => {
    for (const [target] of table) {
      const result = safePath(target);
      if (result === null) continue;
      // What the browser does with a Location header: resolve it against the page.
      expect(new URL(result, "https://console.example/some/page").origin, String(target)).toBe("https://console.example");
      expect(result.startsWith("//") || result.startsWith("/\\"), String(target)).toBe(false);
    }
  });
});

describe("isRememberable", () => {
  it("never remembers /, /logout or /signin", () => {
    expect(isRememberable("/")).toBe(false);
    expect(isRememberable("/logout")).toBe(false);
    expect(isRememberable("/signin")).toBe(false);
    expect(isRememberable("/versionInfo")).toBe(true);
  });
});

describe("withReturnPath", () => {
  it("carries the target in the page's redirect_uri, read back as it was", () => {
    const target = "/export?variables=a&variables=b%2Cc&q=1+2#top";
    const page = withReturnPath("/signin", target);
    expect(new URL(page, "http://x").searchParams.get("redirect_uri")).toBe(target);
    // Only what a query value needs is encoded: the link grows by a few characters, not threefold.
    expect(page.length).toBeLessThan("/signin?redirect_uri=".length + target.length + 12);
  });

  it("leaves out what is no safe, rememberable path", () => {
    for (const target of ["//evil.example/x", "https://evil.example/", "/", "/logout", "/signin?x=1", `/${"a".repeat(16 * 1024)}`, null]) {
      expect(withReturnPath("/signin", target), String(target).slice(0, 30)).toBe("/signin");
    }
  });

  it("keeps a 16 KB link of many variables whole", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `0000000${i}-aaaa-bbbb-cccc-dddddddddddd`.slice(-36));
    const target = `/export?${ids.map((id) => `variables=${id}`).join("&")}`.slice(0, 16 * 1024 - 1);
    expect(new URL(withReturnPath("/signin", target), "http://x").searchParams.get("redirect_uri")).toBe(target);
  });
});
