import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientSecretProblem, isLoopbackHost } from "../../../logger/auth/client-secret.ts";
import { runLoggerMain, tempDir } from "./helpers.ts";

/** The logger as started on a fresh machine: no client secret in its environment unless given. */
const run = (args: string[], env: Record<string, string>) => runLoggerMain(args, { LOGGER_CLIENT_SECRET: "", ...env });

describe("the published default client secret", () => {
  it("is fine on loopback only", () => {
    for (const host of ["127.0.0.1", "127.0.1.1", "::1", "[::1]", "localhost"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "192.168.1.2", "loggia.plant.local", "::ffff:127.0.0.1"]) expect(isLoopbackHost(host), host).toBe(false);
    expect(clientSecretProblem("127.0.0.1", "loggia-console-secret")).toBeNull();
    expect(clientSecretProblem("0.0.0.0", "loggia-console-secret")).toMatch(/published default/);
    expect(clientSecretProblem("0.0.0.0", "a-secret-of-our-own")).toBeNull();
  });

  it("stops logger/main.ts (exit 2) when it listens beyond loopback", async () => {
    const dataDir = tempDir();
    try {
      const p = run(["--port", "0", "--data", dataDir, "--host", "0.0.0.0"], {});
      expect(await p.exited).toBe(2);
      expect(p.err()).toMatch(/LOGGER_CLIENT_SECRET is the published default/);
      expect(p.out()).not.toMatch(/listening/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("lets it start beyond loopback with a secret of its own", async () => {
    const dataDir = tempDir();
    try {
      const p = run(["--port", "0", "--data", dataDir, "--host", "0.0.0.0"], { LOGGER_CLIENT_SECRET: "a-secret-of-our-own", SIM: "off" });
      const deadline = Date.now() + 15_000;
      while (!p.out().includes("listening") && p.child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(p.out()).toMatch(/logger listening on http:\/\/0\.0\.0\.0:\d+/);
      p.child.kill("SIGTERM");
      expect(await p.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a malformed NOTIFY_ALLOW", async () => {
    const p = run(["--port", "0", "--data", "/tmp/never-used-by-loggia"], { NOTIFY_ALLOW: "10.0.0.0/40" });
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(/NOTIFY_ALLOW/);
  });
});
