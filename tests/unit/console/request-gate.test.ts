import { describe, expect, it } from "vitest";
import { bodyLimit, clientAddress, DEFAULT_BODY_LIMIT, navigationFromSameSite, originAllowed, refusal, requestOrigin, routePath, type OriginSettings } from "~/services/requestGate.server";

const direct: OriginSettings = { publicOrigin: null, trustProxy: false };
const proxied: OriginSettings = { publicOrigin: null, trustProxy: true };
const configured: OriginSettings = { publicOrigin: "https://loggia.example", trustProxy: false };
const h = (init: Record<string, string>) => new Headers(init);
const form = { "content-type": "application/x-www-form-urlencoded" };

describe("requestOrigin", () => {
  it("is PUBLIC_ORIGIN when set, whatever the request says", () => {
    expect(requestOrigin({ headers: h({ host: "10.0.0.5:3000", "x-forwarded-proto": "http" }) }, configured)).toBe("https://loggia.example");
  });
  it("is the request's own from Host, ignoring X-Forwarded-* unless a proxy is trusted", () => {
    const headers = h({ host: "localhost:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" });
    expect(requestOrigin({ headers }, direct)).toBe("http://localhost:3000");
    expect(requestOrigin({ headers }, proxied)).toBe("https://evil.example");
    expect(requestOrigin({ headers: h({ host: "loggia.example", "x-forwarded-proto": "https, http" }) }, proxied)).toBe("https://loggia.example");
  });
  it("is null for a Host that is no host[:port]", () => {
    for (const host of ["evil.example/x", "a@b", "", "x y"]) expect(requestOrigin({ headers: h({ host }) }, direct), host).toBeNull();
    expect(requestOrigin({ headers: h({ host: "localhost", "x-forwarded-proto": "gopher" }) }, proxied)).toBeNull();
  });
});

describe("originAllowed", () => {
  const me = "https://loggia.example";
  it("decides on Origin first", () => {
    expect(originAllowed(h({ origin: me }), me)).toBe(true);
    expect(originAllowed(h({ origin: "https://loggia.example:443" }), me)).toBe(true);
    expect(originAllowed(h({ origin: "http://loggia.example" }), me)).toBe(false);
    expect(originAllowed(h({ origin: "https://evil.example", "sec-fetch-site": "same-origin", referer: `${me}/x` }), me)).toBe(false);
    expect(originAllowed(h({ origin: "null", "sec-fetch-site": "same-origin" }), me)).toBe(false);
  });
  it("then on Sec-Fetch-Site (same-origin or none)", () => {
    expect(originAllowed(h({ "sec-fetch-site": "same-origin" }), me)).toBe(true);
    expect(originAllowed(h({ "sec-fetch-site": "none" }), me)).toBe(true);
    expect(originAllowed(h({ "sec-fetch-site": "same-site", referer: `${me}/x` }), me)).toBe(false);
    expect(originAllowed(h({ "sec-fetch-site": "cross-site" }), me)).toBe(false);
  });
  it("then on the Referer, and refuses a request with none of them", () => {
    expect(originAllowed(h({ referer: `${me}/dashboard?x=1` }), me)).toBe(true);
    expect(originAllowed(h({ referer: "https://evil.example/https://loggia.example" }), me)).toBe(false);
    expect(originAllowed(h({ referer: "not a url" }), me)).toBe(false);
    expect(originAllowed(h({}), me)).toBe(false);
    expect(originAllowed(h({ origin: me }), null)).toBe(false);
  });
});

describe("refusal", () => {
  const post = (path: string, headers: Record<string, string>, settings = direct) => refusal({ method: "POST", path, headers: h({ host: "localhost:3000", ...headers }) }, settings);
  it("lets reads through untouched", () => {
    expect(refusal({ method: "GET", path: "/logout", headers: h({ origin: "https://evil.example" }) }, direct)).toBeNull();
    expect(refusal({ method: "HEAD", path: "/", headers: h({}) }, direct)).toBeNull();
  });
  it("answers 405 for methods the console does not take", () => {
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"]) {
      expect(refusal({ method, path: "/settings", headers: h({ host: "localhost:3000", origin: "http://localhost:3000" }) }, direct)).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD, POST" } });
    }
  });
  it("answers 403 to another site — on page routes and on the routes that render nothing", () => {
    for (const path of ["/settings", "/fileBrowser/upload", "/signin/token", "/banner/dismiss", "/logout", "/signin.data"]) {
      expect(post(path, { ...form, origin: "https://evil.example" }), path).toMatchObject({ status: 403, reason: "cross-origin" });
      expect(post(path, { ...form, referer: "https://evil.example/" }), path).toMatchObject({ status: 403 });
      expect(post(path, { ...form }), path).toMatchObject({ status: 403 });
      expect(post(path, { ...form, origin: "http://localhost:3000" }), path).toBeNull();
    }
  });
  it("checks against the public origin behind a proxy", () => {
    expect(post("/signin", { ...form, origin: "https://loggia.example" }, configured)).toBeNull();
    expect(post("/signin", { ...form, origin: "http://localhost:3000" }, configured)).toMatchObject({ status: 403 });
    expect(post("/signin", { ...form, origin: "https://loggia.example", "x-forwarded-proto": "https", "x-forwarded-host": "loggia.example" }, proxied)).toBeNull();
    expect(post("/signin", { ...form, origin: "https://loggia.example", "x-forwarded-proto": "https", "x-forwarded-host": "loggia.example" }, direct)).toMatchObject({ status: 403 });
  });
  it("answers 415 for bodies that are no HTML form, 400 for a multipart body without boundary", () => {
    const me = { origin: "http://localhost:3000" };
    expect(post("/settings", { ...me, "content-type": "application/json" })).toMatchObject({ status: 415 });
    expect(post("/settings", { ...me, "content-type": "text/plain" })).toMatchObject({ status: 415 });
    expect(post("/settings", { ...me })).toMatchObject({ status: 415 });
    expect(post("/settings", { ...me, "content-type": "multipart/form-data" })).toMatchObject({ status: 400 });
    expect(post("/settings", { ...me, "content-type": "multipart/form-data; boundary=abc" })).toBeNull();
    expect(post("/settings", { ...me, "content-type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" })).toBeNull();
  });
  it("answers 413 from Content-Length, with larger limits only for uploads", () => {
    const me = { origin: "http://localhost:3000", ...form };
    expect(post("/settings", { ...me, "content-length": String(DEFAULT_BODY_LIMIT + 1) })).toMatchObject({ status: 413 });
    expect(post("/settings", { ...me, "content-length": String(DEFAULT_BODY_LIMIT) })).toBeNull();
    expect(post("/fileBrowser/upload", { ...me, "content-length": String(20 * 1024 * 1024) })).toBeNull();
    expect(post("/dashboardManager", { ...me, "content-length": String(3 * 1024 * 1024) })).toMatchObject({ status: 413 });
    // The upload routes refuse a declared size themselves, in their own words (the stream is still counted).
    expect(post("/fileBrowser/upload", { ...me, "content-length": String(21 * 1024 * 1024) })).toBeNull();
    expect(post("/globalSettings", { ...me, "content-length": String(3 * 1024 * 1024) })).toBeNull();
    expect(post("/settings", { ...me, "content-length": "1e9" })).toMatchObject({ status: 400 });
  });
});

describe("bodyLimit", () => {
  it("is the default except for the upload routes, also for client data requests", () => {
    expect(bodyLimit("/settings")).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimit("/fileBrowser/upload")).toBeGreaterThan(20 * 1024 * 1024);
    expect(bodyLimit("/canscanner.data")).toBeGreaterThan(8 * 1024 * 1024);
    expect(bodyLimit("/globalSettings")).toBeGreaterThan(1024 * 1024);
    expect(bodyLimit("/dashboardManager")).toBeGreaterThan(2 * 1024 * 1024);
    expect(bodyLimit("/fileBrowser/upload/../../settings")).toBe(DEFAULT_BODY_LIMIT);
    expect(routePath("/_root.data")).toBe("/");
  });
});

describe("clientAddress", () => {
  it("is the peer, or behind a trusted proxy the address the proxy appended last", () => {
    const headers = h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(clientAddress(headers, "::ffff:127.0.0.1", direct)).toBe("127.0.0.1");
    expect(clientAddress(headers, "127.0.0.1", proxied)).toBe("203.0.113.9");
    expect(clientAddress(h({}), "10.1.1.1", proxied)).toBe("10.1.1.1");
  });
});

describe("navigationFromSameSite", () => {
  const me = "http://localhost:3000";
  it("takes page loads from the console or from the user, not links on other sites", () => {
    expect(navigationFromSameSite(h({ "sec-fetch-site": "none" }), me)).toBe(true);
    expect(navigationFromSameSite(h({ "sec-fetch-site": "same-origin" }), me)).toBe(true);
    expect(navigationFromSameSite(h({ "sec-fetch-site": "cross-site", referer: `${me}/` }), me)).toBe(false);
    expect(navigationFromSameSite(h({ "sec-fetch-site": "same-site" }), me)).toBe(false);
    expect(navigationFromSameSite(h({ referer: `${me}/signin` }), me)).toBe(true);
    expect(navigationFromSameSite(h({ referer: "https://evil.example/" }), me)).toBe(false);
    expect(navigationFromSameSite(h({}), me)).toBe(false);
  });
});
