import { describe, expect, it } from "vitest";
import { bareUuid, isRememberable, safePath, startPagePath } from "~/services/redirects";

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
  it("refuses anything that could leave the console", () => {
    for (const t of ["https://evil.example", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "settings", "", null, undefined, "/\nfoo", "/%0d%0aSet-Cookie:x", "\\\\evil"]) {
      const result = safePath(t as string);
      if (result !== null) expect(new URL(result, "http://h").origin).toBe("http://h");
      else expect(result).toBeNull();
    }
    expect(safePath("//evil.example/x")).toBeNull();
    expect(safePath("/\\evil.example")).toBeNull();
    expect(safePath("https://evil.example")).toBeNull();
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
