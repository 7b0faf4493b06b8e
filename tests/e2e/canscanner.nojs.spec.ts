import { join } from "node:path";
import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, signInDirect, test } from "./fixtures";

// Runs with JavaScript on and off against the embedded logger's simulated CAN bus. The scan
// source and the DBC file are logger-wide state: each test sets what it needs first.

const FIXTURES = join(import.meta.dirname, "../fixtures/can");

test.beforeEach(async () => {
  await rpc("CANAPI.UseSimulation", {});
  await rpc("CANAPI.RemoveDatabase", {});
});

test("scans the simulated bus: IDs, DLC, count, rate and changing bytes", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  // The scan restarted in beforeEach: a rate needs two frames of an ID. Without JavaScript the
  // page is drawn once, so it is opened when the logger has a rate for every ID of the bus (else
  // "—") — every one: an ID not seen yet is not in the scan at all (a full run opened the page
  // before the first 2F0 frame).
  const ids = ["0C0", "1A0", "2F0", "3E8", "18FEF100"];
  await expect
    .poll(async () => {
      const { Scan } = await rpc<{ Scan: { IDHex: string; RateHz: number | null }[] }>("CANAPI.GetScan", {});
      return Scan.every((r) => r.RateHz !== null) ? Scan.map((r) => r.IDHex) : [];
    })
    .toEqual(expect.arrayContaining(ids));
  await page.goto("/canscanner");
  await expect(page.getByRole("heading", { name: "CAN Scanner", level: 1 })).toBeVisible();
  await expect(page.getByTestId("can-source")).toContainText("Scanning the simulated CAN bus");
  const scan = page.getByTestId("can-scan");
  for (const id of ids) await expect(scan.locator(`[data-can-id="${id}"]`)).toBeVisible();
  const engine = scan.locator('[data-can-id="0C0"]');
  await expect(engine.getByRole("cell").nth(1)).toHaveText("8");
  await expect(engine.getByRole("cell").nth(3)).toHaveText("100.0 Hz");
  await expect(scan.locator('[data-can-id="1A0"]').getByRole("cell").nth(3)).toHaveText("50.0 Hz");
  await expect(scan.locator('[data-can-id="2F0"]').getByRole("cell").nth(3)).toHaveText("10.0 Hz");
  // Engine speed bytes change all the time; the trailing constant bytes never do.
  await expect(engine.getByTestId("can-payload").locator("mark").first()).toBeVisible();
  // (A slow byte may also have held still in the 2 s window: only the trailing three are fixed.)
  expect((await engine.getByTestId("can-payload").locator("span").allTextContents()).slice(-3)).toEqual(["00", "A5", "FF"]);
  await expect(scan.locator('[data-can-id="18FEF100"] mark')).toHaveCount(0);

  // The count grows: polled with JavaScript, by the Refresh button without.
  const count = async () => Number((await engine.getByTestId("can-count").textContent())!.replace(/\D/g, ""));
  const before = await count();
  await expect
    .poll(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      return count();
    })
    .toBeGreaterThan(before);
});

test("uploads a capture and a DBC file, decodes known values, adds a signal as a variable", async ({ page }, testInfo) => {
  // Each project adds its own signal: the chosen signals persist in the logger.
  const [message, signal, shown] = testInfo.project.name === "nojs" ? ["Temperatures", "Coolant", "83"] : ["EngineData", "Torque", "-100.0"];
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/canscanner");
  const captureForm = page.getByTestId("can-capture-form");
  const dbcForm = page.getByTestId("can-database-form");

  // A malformed capture names the file and the line, and changes nothing.
  await captureForm.getByLabel("File").setInputFiles(join(FIXTURES, "bad-capture.candump"));
  await captureForm.getByRole("button", { name: "Upload" }).click();
  await expect(captureForm.getByRole("alert")).toHaveText(/^bad-capture\.candump, line 3: expected a candump frame/);
  await expect(page.getByTestId("can-source")).toContainText("simulated CAN bus");

  await captureForm.getByLabel("File").setInputFiles(join(FIXTURES, "test-capture.candump"));
  await captureForm.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Capture test-capture.candump loaded.");
  await expect(page.getByTestId("can-source")).toContainText("Scanning the capture test-capture.candump (candump, 5 frames).");
  const row = page.getByTestId("can-scan").locator('[data-can-id="100"]');
  await expect(row.getByTestId("can-payload")).toHaveText(/28\s*23\s*C8\s*18\s*FC\s*AA\s*00\s*00/);
  await expect(row.getByTestId("can-count")).toHaveText("3");
  await expect(row.getByRole("cell").nth(3)).toHaveText("18.2 Hz");
  await expect(row.locator("mark")).toHaveCount(6);

  // A malformed DBC file is refused with its line number.
  await dbcForm.getByLabel("File").setInputFiles(join(FIXTURES, "bad.dbc"));
  await dbcForm.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByTestId("can-database-form").getByRole("alert")).toHaveText(/^bad\.dbc, line 11: expected a signal/);

  await page.getByTestId("can-database-form").getByLabel("File").setInputFiles(join(FIXTURES, "test.dbc"));
  await page.getByTestId("can-database-form").getByRole("button", { name: "Upload" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("DBC file test.dbc loaded.");
  await expect(page.getByTestId("can-database")).toHaveText("test.dbc: 3 messages, 6 signals");
  const signals = page.getByTestId("can-signals");
  // Hand-computed from the last frame of each ID in the capture (see tests/unit/logger/can.test.ts).
  const expected: Record<string, string> = {
    "EngineData.EngineSpeed": "2,250.00",
    "EngineData.Throttle": "80.0",
    "EngineData.Torque": "-100.0",
    "Temperatures.Coolant": "83",
    "Temperatures.OilPressure": "4.18",
    "Heartbeat.Counter": "5",
  };
  for (const [name, value] of Object.entries(expected)) await expect(signals.locator(`[data-signal="${name}"]`).getByTestId("can-value")).toHaveText(value);
  await expect(signals.locator('[data-signal="Temperatures.OilPressure"]')).toContainText("bit 15, 12 bits, big-endian, unsigned, × 0.01 + 0");
  await expect(signals.locator('[data-signal="Temperatures.Coolant"]')).toContainText("× 1 − 40");

  await signals.getByRole("button", { name: `Add ${message}.${signal} as variable` }).click();
  await expect(page.getByTestId("toast-success")).toHaveText(`${message}.${signal} is now a logger variable.`);
  await page.getByTestId("can-signals").locator(`[data-signal="${message}.${signal}"]`).getByRole("link", { name: "Variable" }).click();
  await page.waitForURL((u) => u.pathname === "/variableOverview");
  const variable = page.getByTestId("variables-table").locator(`[data-variable="${message}.${signal}"]`);
  await expect(variable).toBeVisible();
  await expect(variable).toContainText("CAN bus");
  // The variable's current value comes with the bus's next frame of that message: without
  // JavaScript a page rendered before it shows "—" until reloaded, as a user would.
  await expect(async () => {
    await page.reload();
    await expect(variable.getByTestId("value")).toContainText(shown.replace(/\.0$/, ""), { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});

test("needs only a signed-in user", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  expect((await page.goto("/canscanner"))?.status()).toBe(200);
  await expect(page.getByTestId("can-scan")).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/canscanner");
  await page.waitForURL((u) => u.pathname === "/signin");
});
