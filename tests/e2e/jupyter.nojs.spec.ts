import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_PASSWORD, createRole, createUser, expect, setGlobalSettings, signInDirect, test } from "./fixtures";

// Runs with JavaScript on and off. The Jupyter address is global state: put back in `finally`.
// No Debian package of a notebook server is installed here, so a stand-in HTTP server plays it.

async function stubJupyter(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>JupyterLab</title><h1>Stub JupyterLab</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lab` };
}

test("says so when no address is configured or it does not answer, embeds it when it does", async ({ page }) => {
  const { server, url } = await stubJupyter();
  try {
    await setGlobalSettings({ JupyterUrl: "" });
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/jupyterlab");
    await expect(page.getByTestId("jupyter-message")).toContainText("No Jupyter Lab address is configured.");

    // An administrator sets it in Global Settings; a bad address is refused with the rule.
    await page.goto("/globalSettings");
    await page.getByLabel("Jupyter Lab address").fill("ftp://example.com");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Enter an http:// or https:// address.")).toBeVisible();
    await page.getByLabel("Jupyter Lab address").fill(url);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Successfully set settings");
    await expect(page.getByLabel("Jupyter Lab address")).toHaveValue(url);

    await page.goto("/jupyterlab");
    await expect(page.getByTestId("jupyter-frame")).toHaveAttribute("src", url);
    await expect(page.frameLocator('[data-testid="jupyter-frame"]').getByRole("heading", { name: "Stub JupyterLab" })).toBeVisible();

    // The embedded page keeps its connection alive: cut it, or close() would wait for it.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await page.goto("/jupyterlab");
    await expect(page.getByTestId("jupyter-message")).toContainText(`Jupyter Lab at ${url} does not answer.`);
    await expect(page.getByTestId("jupyter-frame")).toHaveCount(0);
  } finally {
    server.close();
    server.closeAllConnections();
    await setGlobalSettings({ JupyterUrl: "" });
  }
});

test("needs UseJupyterLab", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  expect((await page.goto("/jupyterlab"))?.status()).toBe(403);
});
