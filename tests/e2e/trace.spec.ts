import { ADMIN_PASSWORD, expect, LOGGER, signInDirect, test, unique } from "./fixtures";

test("the trace log follows new entries live with JavaScript", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/traceLog?level=warn");
  await page.getByTestId("trace-tail").check();
  const method = unique("Probe.Method");
  await fetch(`${LOGGER}/rpc/${method}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  await expect(page.getByTestId("trace-table")).toContainText(`POST /rpc/${method} 404`, { timeout: 10_000 });
});
