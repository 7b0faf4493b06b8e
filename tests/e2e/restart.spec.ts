import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "./fixtures";
import { freePort } from "./stack";

// `npm start` restarts a crashed embedded logger with back-off, says so, and the console shows
// its outage page meanwhile; it also keeps the generated client secret in DATA_DIR, and prints
// admin's generated first password, which signs in to the forced password change.
const root = resolve(import.meta.dirname, "../..");

test("npm start restarts a crashed embedded logger and the console recovers", async ({ page }) => {
  test.setTimeout(120_000);
  const [port, loggerPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-restart-"));
  const env = { ...process.env, PORT: String(port), LOGGER_PORT: String(loggerPort), DATA_DIR: dataDir, ADMIN_PASSWORD: undefined, SIM: "off", BACKFILL: "", LOGGER_CLIENT_SECRET: "", SESSION_SECRET: "" };
  const app = spawn(process.execPath, ["scripts/start.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  app.stdout.on("data", (d) => (output += d));
  app.stderr.on("data", (d) => (output += d));
  const waitFor = async (pattern: RegExp, ms = 60_000) => {
    const until = Date.now() + ms;
    while (!pattern.test(output)) {
      if (Date.now() > until || app.exitCode !== null) throw new Error(`no ${pattern} in:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    await waitFor(/Loggia is running/);
    // A new data folder's admin password is generated (never a published default), said once.
    const first = /First sign-in: +admin \/ (\S+) \(you will be asked to choose a new password\)/.exec(output)?.[1];
    expect(first, output).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(readFileSync(join(dataDir, "initial-admin-password"), "utf8")).toBe(`${first}\n`);
    // The client secret was generated and kept in DATA_DIR, readable by its owner only.
    const secret = readFileSync(join(dataDir, ".client-secret"), "utf8").trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, ".client-secret")).mode & 0o077).toBe(0);
    const token = await fetch(`http://127.0.0.1:${loggerPort}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from("loggia-console:loggia-console-secret").toString("base64")}` },
      body: new URLSearchParams({ grant_type: "password", username: "admin", password: first! }),
    });
    expect(token.status, "the published default is not the embedded logger's secret").toBe(401);

    await page.goto(`http://localhost:${port}/signin`);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();

    // Crash the logger: the child of npm start that runs logger/main.ts.
    const children = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(app.pid)], { encoding: "utf8" }).stdout;
    const loggerPid = Number(children.split("\n").find((l) => l.includes("logger/main.ts"))?.trim().split(/\s+/)[0]);
    expect(loggerPid).toBeGreaterThan(0);
    process.kill(loggerPid, "SIGKILL");
    await waitFor(/embedded logger stopped unexpectedly \(SIGKILL\); restarting it in 1 s/);
    // Meanwhile the console answers its outage page.
    const during = await page.goto(`http://localhost:${port}/signin`);
    expect(during?.status()).toBe(503);
    await expect(page.getByTestId("error-503")).toBeVisible();
    await waitFor(/embedded logger is running again/);
    await expect(async () => {
      const res = await page.goto(`http://localhost:${port}/signin`);
      expect(res?.status()).toBe(200);
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    expect(app.exitCode).toBeNull();
    // admin/admin is no way in; the printed password is, and asks for a new one at once.
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel("Password").fill(first!);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/changePassword$/);
  } finally {
    app.kill("SIGTERM");
    await new Promise((r) => (app.exitCode !== null ? r(null) : app.once("exit", r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
