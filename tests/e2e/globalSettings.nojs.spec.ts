import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, setGlobalSettings, test } from "./fixtures";

// Runs with JavaScript on and off. Every test changes state the whole run shares (start page,
// sign-in mode, theme), so each puts it back in `finally`.

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const SAVED = "Successfully set settings";

async function restoreStyling() {
  await rpc("GI.system/SettingsManagementAPI.SetSetting", { ID: -1, Key: "WebUI", Value: "{}" });
}

/** Signs in from the page itself: the console remembers it and returns there (spec §2). */
async function signInAt(page: Page, path: string, username: string, password: string) {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/signin\\?redirect_uri=${path.replace(/[?]/g, "\\?")}$`));
  await page.getByLabel(/username|nome utente/i).fill(username);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL((url) => url.pathname === path);
}

async function openAsAdmin(page: Page) {
  await signInAt(page, "/globalSettings", "admin", ADMIN_PASSWORD);
  await expect(page.getByRole("heading", { name: "Global Settings", level: 1 })).toBeVisible();
}

const headerLogo = (page: Page) => page.locator("header").getByRole("link", { name: "Home" }).locator("img:visible");

test("the start page chosen here is where / leads", async ({ page }) => {
  try {
    await openAsAdmin(page);
    await page.getByLabel("Start page").selectOption({ label: "About" });
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(page).toHaveURL(/\/globalSettings$/);
    await expect(page.getByLabel("Start page")).toHaveValue("versionInfo");
    await page.goto("/");
    await expect(page).toHaveURL(/\/versionInfo$/);
  } finally {
    await setGlobalSettings({ DefaultStartPage: "device" });
  }
});

test("colours and logo are saved, shown in the shell and restored", async ({ page }) => {
  try {
    await openAsAdmin(page);
    await page.getByLabel("Main colour", { exact: true }).fill("#123456");
    await page.getByLabel("Hover colour", { exact: true }).fill("#abc");
    await page.getByRole("button", { name: "Save styling" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("style", /--loggia-main:\s*#123456/);
    await expect(page.locator("html")).toHaveAttribute("style", /--loggia-hover:\s*#aabbcc/);
    await expect(page.getByLabel("Hover colour", { exact: true })).toHaveValue("#aabbcc");

    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.bin", mimeType: "application/octet-stream", buffer: PNG });
    await page.getByRole("button", { name: "Save styling" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(headerLogo(page)).toHaveAttribute("src", /^\/theme\/logo\?/);
    const src = (await headerLogo(page).getAttribute("src"))!;
    const served = await page.request.get(src);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["content-security-policy"]).toContain("default-src 'none'");
    // Colours stay when only the logo changes.
    await expect(page.locator("html")).toHaveAttribute("style", /--loggia-main:\s*#123456/);

    await page.getByLabel("Restore the default logo").check();
    // The picker alone decides when the text field is left as it was (without JavaScript the
    // two cannot follow each other).
    await page.getByLabel("Main colour (picker)").fill("#3056a8");
    await page.getByLabel("Hover colour", { exact: true }).fill("#4c85ff");
    await page.getByRole("button", { name: "Save styling" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(page.locator("header").getByRole("link", { name: "Home" }).locator("[data-logo=default]")).toHaveAttribute("src", "/logo.svg");
    await expect(page.locator("html")).toHaveAttribute("style", /--loggia-main:\s*#3056a8/);
    const { Settings } = await rpc<{ Settings: { Value: string }[] }>("GI.system/SettingsManagementAPI.GetSetting", { ID: -1, Key: "WebUI" });
    expect(JSON.parse(Settings[0].Value)).toEqual({ styling: { logo: "default_image", mainColor: "#3056a8", hoverColor: "#4c85ff", lightColor: "#e8eefb" } });
  } finally {
    await restoreStyling();
  }
});

test("SVGs with active content and files that are no image are refused", async ({ page }) => {
  try {
    await openAsAdmin(page);
    const logoBefore = await headerLogo(page).getAttribute("src");
    const logo = page.getByLabel("Logo", { exact: true });
    const save = page.getByRole("button", { name: "Save styling" });
    const svgs = [
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;avascript:alert(1)"><rect width="10" height="10"/></a></svg>`,
    ];
    for (const [i, svg] of svgs.entries()) {
      await logo.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(svg) });
      await save.click();
      // A console loads its SVG sanitizer (jsdom) when Global Settings is first opened, ~1 CPU-s:
      // on a machine as busy as the test run's, the first answer may wait for it.
      await expect(page.getByText("This SVG is refused")).toBeVisible({ timeout: i === 0 ? 30_000 : undefined });
    }
    // Named and typed like a PNG, but not one.
    await logo.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
    await save.click();
    await expect(page.getByText("The logo must be a PNG, JPEG or SVG image.")).toBeVisible();
    await expect(headerLogo(page)).toHaveAttribute("src", logoBefore!);
    // A harmless SVG passes and is served as an image under the restrictive policy.
    await logo.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="#3056a8"/></svg>`) });
    await save.click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    const served = await page.request.get((await headerLogo(page).getAttribute("src"))!);
    expect(served.headers()["content-type"]).toBe("image/svg+xml");
    expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  } finally {
    await restoreStyling();
  }
});

test("logos over 1 MB are refused", async ({ page, baseURL }) => {
  await openAsAdmin(page);
  const logoBefore = await headerLogo(page).getAttribute("src");
  const tooBig = (extra: number) => Buffer.concat([PNG, Buffer.alloc(extra)]);
  // Through the form: with JavaScript the browser refuses at once, without it the server does.
  await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: tooBig(2 * 1024 * 1024) });
  await page.getByRole("button", { name: "Save styling" }).click();
  await expect(page.getByText("The logo is larger than 1 MB.")).toBeVisible();
  await expect(headerLogo(page)).toHaveAttribute("src", logoBefore!);

  const post = (extra: number) =>
    page.request.post("/globalSettings", {
      multipart: { intent: "styling", mainColor: "#3056a8", hoverColor: "#4c85ff", logo: { name: "big.png", mimeType: "image/png", buffer: tooBig(extra) } },
      headers: { Origin: baseURL! },
    });
  // Within the body limit: read, then refused by the size check.
  const big = await post(1024 * 1024);
  expect(big.status()).toBe(400);
  expect(await big.text()).toContain("The logo is larger than 1 MB.");
  // Far past it: refused on Content-Length without reading the body (the server then drops the
  // connection, so this goes last).
  const huge = await post(3 * 1024 * 1024);
  expect(huge.status()).toBe(413);
  expect(await huge.text()).toContain("The logo is larger than 1 MB.");
  const { Settings } = await rpc<{ Settings: { Value: string }[] }>("GI.system/SettingsManagementAPI.GetSetting", { ID: -1, Key: "WebUI" });
  expect(Settings[0]?.Value ?? "{}").not.toContain("logo-");
});

test("Global Settings' header shows the styling as stored, also just after a change made elsewhere", async ({ page }) => {
  try {
    await openAsAdmin(page);
    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Save styling" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(headerLogo(page)).toHaveAttribute("src", /^\/theme\/logo\?f=/);
    // Put back through the logger's API, not this console: other pages may show the logo they
    // read a few seconds ago, this one reads it now — as its form does.
    await restoreStyling();
    await page.goto("/globalSettings");
    await expect(headerLogo(page)).toHaveAttribute("src", "/logo.svg");
  } finally {
    await restoreStyling();
  }
});

test("a wrong colour shows a field error and keeps what was typed", async ({ page, javaScriptEnabled }) => {
  try {
    await openAsAdmin(page);
    const main = page.getByLabel("Main colour", { exact: true });
    if (javaScriptEnabled) {
      // The preview follows the fields as they are typed.
      await main.fill("#ff0000");
      await expect(page.getByTestId("theme-preview")).toHaveAttribute("style", /--preview-main:\s*#ff0000/);
    }
    await main.fill("#12345");
    await page.getByRole("button", { name: "Save styling" }).click();
    await expect(page.getByText("Enter a colour as #rgb or #rrggbb, for example #3056a8.")).toBeVisible();
    await expect(main).toHaveValue("#12345");
    await expect(main).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("html")).toHaveAttribute("style", /--loggia-main:\s*#3056a8/);
  } finally {
    await restoreStyling();
  }
});

test("sign-in can be switched off and, from a browser without a session, on again", async ({ page, browser, javaScriptEnabled, baseURL }) => {
  const { Config } = await rpc<{ Config: { Features: string[] } }>("AdminAPI.GetGlobalSettings", {});
  await setGlobalSettings({ Features: ["versionInfo", "dashboard"] });
  const anonymous = await browser.newContext({ javaScriptEnabled, baseURL });
  try {
    await openAsAdmin(page);
    const loginRequired = page.getByRole("checkbox", { name: "Sign-in required" });
    await loginRequired.uncheck();
    // Guard rail: no screen at all without sign-in is refused.
    await page.getByRole("checkbox", { name: "Dashboard", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Tick at least one screen")).toBeVisible();
    await expect(loginRequired).not.toBeChecked();

    await page.getByRole("checkbox", { name: "Global Settings" }).check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(page).toHaveURL(/\/globalSettings$/);
    const { Config: off } = await rpc<{ Config: { LoginRequired: boolean; Features: string[] } }>("AdminAPI.GetGlobalSettings", {});
    expect(off.LoginRequired).toBe(false);
    expect(off.Features.sort()).toEqual(["globalSettings", "versionInfo"]);

    const visitor = await anonymous.newPage();
    const res = await visitor.goto("/globalSettings");
    expect(res?.status()).toBe(200);
    await expect(visitor.getByTestId("no-login-note")).toBeVisible();
    await visitor.getByRole("checkbox", { name: "Sign-in required" }).check();
    await visitor.getByRole("button", { name: "Save settings" }).click();
    await expect(visitor).toHaveURL(/\/signin\?redirect_uri=\/globalSettings$/);
    await expect(visitor.getByTestId("toast-success")).toHaveText(SAVED);
    await visitor.goto("/versionInfo");
    await expect(visitor).toHaveURL(/\/signin\?redirect_uri=\/versionInfo$/);
  } finally {
    await anonymous.close();
    await setGlobalSettings({ LoginRequired: true, Features: Config.Features });
  }
});

test("without ManageGlobalSettings the page and its action answer 403", async ({ page, baseURL }) => {
  const role = await createRole(["ViewDevices", "ManageUsers", "ManageRoles"]);
  const user = await createUser(role.id);
  await signInAt(page, "/globalSettings", user.username, user.password);
  const res = await page.goto("/globalSettings");
  expect(res?.status()).toBe(403);
  await expect(page.getByTestId("error-403")).toBeVisible();
  const post = await page.request.post("/globalSettings", {
    form: { intent: "general", defaultStartPage: "versionInfo", loginRequired: "on", defaultLanguage: "en", defaultTimezone: "UTC" },
    headers: { Origin: baseURL! },
  });
  expect(post.status()).toBe(403);
  const { Config } = await rpc<{ Config: { DefaultStartPage: string } }>("AdminAPI.GetGlobalSettings", {});
  expect(Config.DefaultStartPage).toBe("device");
});
