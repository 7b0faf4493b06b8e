import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../support/postgres.ts";
import { expect, test } from "./fixtures";
import { freePort, runNode, startConsole, stopChild, waitFor } from "./stack";

// Issue 17 §4: PostgreSQL stops under a running console + logger (STORE_URL): the console shows
// its outage page, the logger retries, and when PostgreSQL is back everything carries on with
// neither process restarted. A stack of its own (its own PostgreSQL, logger and console), so the
// run's shared stack never loses its database.
const PASSWORD = "pg-outage-Admin-1";
/** The logger's outage buffer, small here so that this outage outlasts it (docs/storage.md, "Store outages"). */
const STORE_BUFFER_TIME = "3s";

/** Whether the logger's trace log (DATA_DIR/trace.log) holds an entry with this text. */
function traced(dataDir: string, text: string): boolean {
  try {
    return readFileSync(join(dataDir, "trace.log"), "utf8").includes(text);
  } catch {
    return false;
  }
}

async function loggerToken(loggerUrl: string): Promise<string> {
  const auth = `Basic ${Buffer.from("loggia-console:loggia-console-secret").toString("base64")}`;
  const res = await fetch(`${loggerUrl}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: auth }, body: new URLSearchParams({ grant_type: "password", username: "admin", password: PASSWORD }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

test("PostgreSQL stopping: a page seen before shows what was known, one never seen the outage page; when it returns the same sign-in carries on, without restarts", async ({ page }) => {
  test.setTimeout(120_000);
  const pg = await startPostgres({ port: Number(process.env.E2E_PG_OUTAGE_PORT ?? 55541) });
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-pg-outage-"));
  const logger = runNode(["logger/main.ts", "--port", String(port), "--data", dataDir], { ADMIN_PASSWORD: PASSWORD, STORE_URL: pg.url, LOGGER_ID: "outage", SIM: "on", STORE_BUFFER_TIME });
  let log = "";
  logger.stderr!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const loggerUrl = `http://127.0.0.1:${port}`;
  let console: { url: string; stop(): Promise<void> } | null = null;
  try {
    await waitFor(`${loggerUrl}/rpc/AdminAPI.LoginRequired`, 30_000);
    console = await startConsole(loggerUrl);
    const url = console.url;
    await page.goto(`${url}/signin`);
    await page.getByLabel(/username/i).fill("admin");
    await page.getByLabel(/^password$/i).fill(PASSWORD);
    await page.getByLabel(/^password$/i).press("Enter");
    await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
    expect((await page.goto(`${url}/userManagement`))?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.goto(`${url}/dashboard`);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live", { timeout: 20_000 });

    await test.step("PostgreSQL stops: what was known or the outage page, and both processes keep running", async () => {
      await pg.pause();
      // User Management, seen by this sign-in: its last answers, said to be so (decision 0015).
      const answer = await page.goto(`${url}/userManagement`);
      expect(answer?.status()).toBe(503);
      await expect(page.getByTestId("logger-away")).toContainText(/this page shows what was known at \d\d:\d\d:\d\d/);
      await expect(page.locator('tr[data-username="admin"]')).toBeVisible();
      // Log Messages, never opened: nothing to show but the outage page (inside the shell).
      expect((await page.goto(`${url}/log`))?.status()).toBe(503);
      await expect(page.getByTestId("error-503")).toBeVisible();
      // A dashboard this sign-in has opened is shown offline (decision 0011), not the error page.
      // What it draws depends on what the console still has cached (the remembered page, "No data"
      // per chart, or charts from cached history), but never a value that looks live: the page's
      // badge and every data widget's own mark say Offline.
      await page.goto(`${url}/dashboard`);
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "offline");
      const judged = page.locator("[data-testid=widget][data-freshness]");
      await expect(judged.first()).toBeVisible();
      expect(new Set(await judged.evaluateAll((els) => els.map((e) => e.getAttribute("data-freshness"))))).toEqual(new Set(["offline"]));
      await expect(page.getByTestId("widget-freshness").first()).toHaveText("Offline");
      // The outage outlasts the logger's buffer (3 s here): it says so in its trace.
      await expect.poll(() => traced(dataDir, "the outage buffer is full"), { timeout: 30_000 }).toBe(true);
      expect(logger.exitCode, log).toBeNull();
    });

    await test.step("PostgreSQL returns: the same sign-in carries on and writes are stored", async () => {
      await pg.resume();
      const back = Date.now();
      await expect(async () => {
        const res = await page.goto(`${url}/userManagement`);
        expect(res?.status()).toBe(200);
      }).toPass({ timeout: 30_000 });
      expect(page.url()).not.toMatch(/\/signin/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // Live values flow again from the simulator through the store.
      await page.goto(`${url}/dashboard`);
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live", { timeout: 20_000 });
      // Project State says the store writes again and what the outage cost.
      await page.goto(`${url}/devices`);
      const store = page.getByTestId("store-card");
      await expect(store).toHaveAttribute("data-state", "writing", { timeout: 20_000 });
      await expect(store).toContainText("PostgreSQL");
      await expect(page.getByTestId("store-loss")).toHaveText(/^Last outage: the samples acquired from .+ to .+ were not kept \([\d,]+ samples\)\.$/);
      // Samples taken after PostgreSQL's return are in its history (the series store resumed).
      const headers = { Authorization: `Bearer ${await loggerToken(loggerUrl)}`, "Content-Type": "application/json" };
      const { Data } = (await (await fetch(`${loggerUrl}/online/structure/variables`, { headers })).json()) as { Data: { Id: string; Name: string; SourceId: string }[] };
      const oil = Data.find((v) => v.Name === "Oil temperature")!;
      await expect(async () => {
        const res = await fetch(`${loggerUrl}/history/statistics`, { method: "POST", headers, body: JSON.stringify({ Start: back, End: Date.now(), Variables: [{ SID: oil.SourceId, VID: oil.Id }] }) });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { Data: { Statistics: { Count: number }[] } }).Data.Statistics[0]!.Count).toBeGreaterThan(0);
      }).toPass({ timeout: 20_000 });
      expect(logger.exitCode, log).toBeNull();
    });
  } finally {
    // Off the console's pages first: a page polling a console that stops logs failed fetches.
    await page.goto("about:blank");
    await console?.stop();
    await stopChild(logger);
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
