import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, roleId, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 15 §1: frozen data never looks live. Acquisition is really stopped on the shared e2e
// logger (ProjectAPI.Stop) and started again at the end; the page is judged as the server
// rendered it (no JavaScript) and, with JavaScript, as the page re-judges it by itself.

async function freshnessDashboard(): Promise<string> {
  const ids = await variableIds();
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Freshness "),
      Content: {
        Refresh: "5s",
        Widgets: [
          { ID: "oil", Type: "value", X: 0, Y: 0, W: 4, H: 2, Variables: [ids["Oil temperature"]] },
          { ID: "pressure", Type: "gauge", X: 4, Y: 0, W: 4, H: 2, Variables: [ids["Oil pressure"]] },
          { ID: "pump", Type: "lamp", X: 8, Y: 0, W: 4, H: 1, Variables: [ids["Pump running"]] },
        ],
      },
    },
  });
  return ID;
}

const js = () => test.info().project.name !== "nojs";
/** Reloads (as the page's own refresh would without JavaScript) until the badge says `state`. */
async function untilBadge(page: Page, url: string, state: string) {
  await expect
    .poll(
      async () => {
        if (!js()) await page.goto(url);
        return page.getByTestId("live-state").getAttribute("data-state");
      },
      { timeout: 15_000 },
    )
    .toBe(state);
}

test("values that stop updating turn stale with their age and greyed, and live again when acquisition resumes", async ({ page }) => {
  test.setTimeout(60_000);
  const id = await freshnessDashboard();
  const oil = (await variableIds())["Oil temperature"]!;
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    const url = `/dashboard?id=${id}`;
    await page.goto(url);
    // Rendered by the server too: without JavaScript the badge is there, saying live.
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
    await expect(page.getByTestId("live-state")).toHaveText("Live");
    await expect(page.locator('[data-widget="oil"]')).not.toHaveAttribute("data-freshness", "stale");
    await expect(page.locator(".loggia-not-live")).toHaveCount(0);

    await rpc("ProjectAPI.Stop", {});
    await untilBadge(page, url, "stale");
    await expect(page.getByTestId("live-state")).toContainText(/Stale · \d+ sec/);
    for (const w of ["oil", "pressure", "pump"]) {
      await expect(page.locator(`[data-widget="${w}"]`)).toHaveAttribute("data-freshness", "stale");
      await expect(page.locator(`[data-widget="${w}"] .loggia-not-live`)).toHaveCount(1);
      await expect(page.locator(`[data-widget="${w}"] [data-testid=widget-freshness]`)).toHaveText("Stale");
    }

    // Monitor judges its tiles the same way.
    await page.goto(`/monitor?v=${oil}`);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "stale");
    await expect(page.getByTestId("monitor-tile")).toHaveAttribute("data-freshness", "stale");
    await expect(page.locator('[data-testid=monitor-tile] [data-testid=tile-value].loggia-not-live')).toHaveCount(1);
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  const url = `/dashboard?id=${id}`;
  await page.goto(url);
  await untilBadge(page, url, "live");
  await expect(page.locator(".loggia-not-live")).toHaveCount(0);
  await rpc("WebUIAPI.RemoveDashboard", { ID: id });
});

test("Italian pages say the state in Italian", async ({ page }) => {
  const id = await freshnessDashboard();
  const username = unique("ita");
  const password = `pw-${username}-1`;
  await rpc("GI.system/UserManagementAPI.AddUser", {
    User: { Username: username, EMail: `${username}@example.com`, Role: await roleId("Viewer"), Timezone: "Europe/Rome", Language: "it", MustChangePassword: false },
    Password: password,
  });
  try {
    await signInDirect(page, username, password);
    await page.goto(`/dashboard?id=${id}`);
    await expect(page.locator("html")).toHaveAttribute("lang", /^it/);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
    await expect(page.getByTestId("live-state")).toHaveText("In diretta");
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
  }
});
