import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoggerMain as run, tempDir } from "./helpers.ts";

describe("logger/main.ts", () => {
  it("prints the listening line, serves, and exits 0 on SIGTERM", async () => {
    const dataDir = tempDir();
    try {
      const p = run(["--port", "0", "--data", dataDir, "--controller"]);
      // A first start on PostgreSQL (a new schema) beside the other suites took more than 10 s (CI, 2026-11-30 17:44).
      const deadline = Date.now() + 40_000;
      while (!p.out().includes("logger listening") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(p.out()).toContain("logger listening");
      // A new data folder is announced first ("logger: new store created", read by npm start),
      // then admin's generated first password, also kept beside the data for the logger's user only.
      const [created, password] = p.out().split("\n");
      expect(created).toBe("logger: new store created (first start)");
      const file = join(dataDir, "initial-admin-password");
      expect(password).toMatch(new RegExp(`^logger: first sign-in: admin / [a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4} \\(to be changed at the first sign-in; also in ${file}\\)$`));
      expect(readFileSync(file, "utf8")).toBe(`${password!.split(" ")[5]}\n`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const first = p.out().split("\n")[2]!;
      expect(first).toMatch(/^logger listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = first.replace("logger listening on ", "");
      const res = await fetch(`${url}/rpc/system.getVersionInfo`, { method: "POST" });
      expect(((await res.json()) as any).Value.Name).toBe("Loggia Logger Controller");
      p.child.kill("SIGTERM");
      expect(await p.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses invalid environment values with exit code 2", async () => {
    const p = run([], { LOGGER_PORT: "eighty", DATA_DIR: "/tmp/never-used-by-loggia" });
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(/LOGGER_PORT/);
  });

  it("refuses malformed LOGGER_ALLOWED_ORIGINS and LOGGER_HOSTNAMES with exit code 2", async () => {
    const origins = run([], { LOGGER_ALLOWED_ORIGINS: "console.plant:3000", DATA_DIR: "/tmp/never-used-by-loggia" });
    expect(await origins.exited).toBe(2);
    expect(origins.err()).toMatch(/LOGGER_ALLOWED_ORIGINS: console\.plant:3000 is not an origin/);
    const names = run([], { LOGGER_HOSTNAMES: "http://logger.plant/", DATA_DIR: "/tmp/never-used-by-loggia" });
    expect(await names.exited).toBe(2);
    expect(names.err()).toMatch(/LOGGER_HOSTNAMES/);
  });
});
