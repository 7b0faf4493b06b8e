import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, cspSource, newNonce } from "~/services/csp.server";

describe("cspSource", () => {
  it("turns tile templates and URLs into sources", () => {
    expect(cspSource("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://*.tile.openstreetmap.org");
    expect(cspSource("http://tiles.plant.local:8080/{z}/{x}/{y}.png")).toBe("http://tiles.plant.local:8080");
    expect(cspSource("https://jupyter.example/lab?token=x")).toBe("https://jupyter.example");
    expect(cspSource("http://[fd00::5]:8888/lab")).toBe("http://[fd00::5]:8888");
  });
  it("never lets a setting write into the policy", () => {
    expect(cspSource("https://a.example;script-src*/x")).toBe("https:");
    expect(cspSource("https://tiles-{s}.example/{z}")).toBe("https:");
    expect(cspSource("javascript:alert(1)")).toBeNull();
    expect(cspSource("")).toBeNull();
    expect(cspSource(null)).toBeNull();
  });
});

describe("contentSecurityPolicy", () => {
  it("allows scripts only from the console and with the nonce, and framing only by itself", () => {
    const nonce = newNonce();
    const policy = contentSecurityPolicy(nonce, { images: [cspSource("https://{s}.tile.example.org/{z}/{x}/{y}.png")], frames: [null, cspSource("http://jupyter:8888/lab")] });
    const directives = Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directives["frame-ancestors"]).toEqual(["'self'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["img-src"]).toContain("https://*.tile.example.org");
    expect(directives["frame-src"]).toEqual(["'self'", "http://jupyter:8888"]);
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });
  it("makes a new nonce per response", () => {
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
