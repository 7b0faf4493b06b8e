import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Every console replica of a deployment must sign cookies with the same secret (issue 17):
// SESSION_SECRET, or SESSION_SECRET_FILE (a mounted secret file) read the same by all.

let sessionSecrets: (value: string | undefined, file: string | undefined) => string[];
let dir: string;
beforeAll(async () => {
  process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
  ({ sessionSecrets } = await import("~/services/env.server"));
  dir = mkdtempSync(join(tmpdir(), "loggia-secret-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("session secrets", () => {
  it("come from SESSION_SECRET, comma-separated for rotation", () => {
    expect(sessionSecrets("new-secret-0123456789, old-secret-0123456789", undefined)).toEqual(["new-secret-0123456789", "old-secret-0123456789"]);
  });

  it("come from SESSION_SECRET_FILE, one per line", () => {
    const file = join(dir, "secret");
    writeFileSync(file, "file-secret-0123456789\nolder-secret-0123456789\n");
    expect(sessionSecrets(undefined, file)).toEqual(["file-secret-0123456789", "older-secret-0123456789"]);
  });

  it("refuse both at once, a missing or empty file and a short secret", () => {
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n");
    expect(() => sessionSecrets("a-secret-0123456789", empty)).toThrow(/not both/);
    expect(() => sessionSecrets(undefined, join(dir, "missing"))).toThrow(/cannot be read/);
    expect(() => sessionSecrets(undefined, empty)).toThrow(/is empty/);
    expect(() => sessionSecrets("good-secret-0123456789,short", undefined)).toThrow(/16 characters/);
  });

  it("are none when neither is set (the caller decides)", () => {
    expect(sessionSecrets(undefined, undefined)).toEqual([]);
  });
});
