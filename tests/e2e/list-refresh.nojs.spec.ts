import { ADMIN_PASSWORD, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 28 §2: without JavaScript, Alarming and Variable Overview reload themselves as the
// dashboards do (a <noscript> meta refresh; with JavaScript they poll or stream instead). Not in
// a page state with a form in progress. The tests wait for the page's data to change, never a
// fixed time.

test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "the meta refresh is the page's way to update without JavaScript");

async function variableId(name: string): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Data.find((v) => v.Name === name)!.Id;
}

test("Alarming reloads itself: an alarm raised after the page was shown appears without a click", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/alarming");
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "30");
  await page.goto("/alarming?refresh=5s");
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "5");
  const name = unique("Refresh check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await variableId("Oil temperature"), Type: "high", High: -1000, Severity: "high" } });
  try {
    // The page is not navigated by the test: the row appears after one of its own reloads.
    const row = page.getByTestId("alarms-table").locator(`tr[data-alarm="${name}"]`);
    await expect(row).toBeAttached({ timeout: 20_000 });
    expect(page.url()).toMatch(/\/alarming\?refresh=5s$/);
    // The shelve panel is a form in progress: no reload there.
    await page.goto(`/alarming?refresh=5s&shelve=${ID}`);
    await expect(page.getByRole("region", { name: `Shelve ${name}` })).toBeVisible();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    // Choosing alarms and typing a comment is a form of its own: no reload there either.
    await page.goto("/alarming?refresh=5s&ack=select");
    await expect(page.getByLabel("Comment")).toBeVisible();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    // The page says it updates itself, and its link pauses the updates (before typing a comment) and resumes them.
    await page.goto("/alarming");
    await page.getByTestId("nojs-refresh").getByRole("link", { name: "Pause updates" }).click();
    await expect(page).toHaveURL(/\/alarming\?refresh=off$/);
    await expect(page.getByTestId("nojs-refresh")).toContainText("Updates are paused.");
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await page.getByTestId("nojs-refresh").getByRole("link", { name: "Resume updates" }).click();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "30");
    await expect(page.getByTestId("nojs-refresh")).toContainText("This page updates itself every 30 s.");
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID });
  }
});

test("Variable Overview reloads itself: the simulated energy counter moves without a click", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  // The simulated meter's energy counter rises by at least 0.011 kWh in 5 s (8.6 kW or more), so
  // its two decimals differ after every reload; a temperature may rest on one value for a while.
  await page.goto("/variableOverview?q=Energy&refresh=5s");
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "5");
  const value = page.locator('tr[data-variable="Energy"]').getByTestId("value");
  const first = await value.textContent();
  const loadedAt = await page.evaluate(() => performance.timeOrigin);
  await expect(value).not.toHaveText(first ?? "", { timeout: 20_000 });
  // A new document (the reload), not a script: JavaScript is off.
  expect(await page.evaluate(() => performance.timeOrigin)).toBeGreaterThan(loadedAt);
});
