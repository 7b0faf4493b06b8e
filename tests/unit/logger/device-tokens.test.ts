import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEVICE_TOKEN_TTL_SEC, DeviceTokens } from "../../../logger/auth/device-tokens.ts";
import { tempDir } from "./helpers.ts";

// Device tokens (issue 24): signed, bound to one user, with an end; anything else counts as none.

describe("device tokens", () => {
  const clock = { t: 1_800_000_000_000 };
  const tokens = new DeviceTokens(randomBytes(32), { now: () => clock.t });

  it("verify as the same id for the user they were issued to, and for nobody else", () => {
    const a = tokens.issue(7);
    const b = tokens.issue(7);
    expect(a).toMatch(/^d1\.7\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(a, 7)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tokens.verify(a, 7)).toBe(tokens.verify(a, 7));
    expect(tokens.verify(b, 7)).not.toBe(tokens.verify(a, 7));
    expect(tokens.verify(a, 8)).toBeNull();
  });

  it("refuse a changed token, another key's, an expired one and anything malformed", () => {
    const token = tokens.issue(7);
    const [v, user, expires, nonce, mac] = token.split(".");
    expect(tokens.verify([v, "8", expires, nonce, mac].join("."), 8)).toBeNull();
    expect(tokens.verify([v, user, String(Number(expires) + 86400), nonce, mac].join("."), 7)).toBeNull();
    expect(tokens.verify(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, 7)).toBeNull();
    expect(new DeviceTokens(randomBytes(32), { now: () => clock.t }).verify(token, 7)).toBeNull();
    for (const junk of ["", "d1", "None", `${token}.x`, `${token}${"A".repeat(300)}`]) expect(tokens.verify(junk, 7)).toBeNull();
    clock.t += (DEVICE_TOKEN_TTL_SEC - 1) * 1000;
    expect(tokens.verify(token, 7)).not.toBeNull();
    clock.t += 1000;
    expect(tokens.verify(token, 7)).toBeNull();
  });

  it("keep their key in the data folder, readable by its owner only, across restarts", () => {
    const dir = tempDir();
    try {
      const first = DeviceTokens.inDataDir(dir);
      const file = join(dir, ".device-token-key");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}$/);
      expect(DeviceTokens.inDataDir(dir).verify(first.issue(3), 3)).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
