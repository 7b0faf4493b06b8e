import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createUser, expect, SCREENS, setGlobalSettings, signInDirect, test, token } from "./fixtures";

// The request gate and its neighbours, with JavaScript (project js) and without (nojs): another
// site cannot post to the console (the translated refusal page), GET /logout does not sign
// out, the hash token is not taken from another site's link, and odd requests get 4xx pages.

const base = `http://localhost:${process.env.E2E_PORT}`;
// Another origin on the same site (another port of localhost): the browser sends the console's
// SameSite=Lax cookie along with its posts, so only the origin check stands in the way.
const EVIL = "http://localhost:39998";

/** Opens a page of "another site" holding `html`, served by Playwright itself. */
async function openEvil(page: Page, html: string) {
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><html><body>${html}</body></html>` }));
  await page.goto(`${EVIL}/page`);
}

async function stillSignedIn(page: Page, username: string) {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId("user-menu")).toContainText(username);
}

test("forms on another site cannot post to the console, not even to routes without a page", async ({ page }) => {
  const user = await createUser("Operator");
  await signInDirect(page, user.username, user.password);
  const forms: [string, string][] = [
    ["/logout", ""],
    ["/fileBrowser/upload", `<input name="path" value=""><input name="file" value="x">`],
    ["/banner/dismiss", `<input name="text" value="x"><input name="redirectTo" value="/">`],
    ["/signin/token", `<input name="access_token" value="someone-elses-token">`],
    ["/settings", `<input name="language" value="it"><input name="theme" value="dark">`],
  ];
  for (const [path, fields] of forms) {
    await openEvil(page, `<form method="post" action="${base}${path}" enctype="${path.includes("upload") ? "multipart/form-data" : "application/x-www-form-urlencoded"}">${fields}<button>Go</button></form>`);
    const [response] = await Promise.all([page.waitForResponse(`${base}${path}`), page.getByRole("button", { name: "Go" }).click()]);
    expect(response.status(), path).toBe(403);
    await expect(page.getByTestId("error-403")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Request refused" })).toBeVisible();
    await expect(page.getByText("This request came from another site")).toBeVisible();
  }
  await page.unrouteAll();
  await stillSignedIn(page, user.username);
});

test("the refusal page speaks the visitor's language", async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ "Accept-Language": "it" });
  const res = await page.request.post(`${base}/settings`, { form: { a: "1" }, headers: { Origin: EVIL, Accept: "text/html" } });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain("Richiesta rifiutata");
});

test("GET /logout asks instead of signing out; its button signs out", async ({ page }) => {
  const user = await createUser("Operator");
  await signInDirect(page, user.username, user.password);
  const res = await page.goto("/logout");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Sign out" })).toBeVisible();
  await stillSignedIn(page, user.username);
  await page.goto("/logout");
  await page.getByTestId("logout-confirm").click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin\?redirect_uri=\/settings$/);
  // Signed out, /logout has nothing to ask.
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/signin$/);
});

test("an access token in the hash of another site's link is not taken", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled === false, "the hash reaches the console only through its script");
  const user = await createUser("Viewer");
  const access = await token(user.username, user.password);
  await openEvil(page, `<a href="${base}/signin#access_token=${encodeURIComponent(access)}">open</a>`);
  await page.getByRole("link", { name: "open" }).click();
  await page.waitForURL(`${base}/signin`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  // The hash is dropped, and nobody is signed in.
  await expect.poll(() => page.evaluate(() => location.hash)).toBe("");
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin\?redirect_uri=\/settings$/);
});

test("pages carry a CSP with a nonce; everything says nosniff", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const res = await page.goto("/dashboard");
  const csp = res!.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'self'");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  expect(await res!.text()).toContain(`nonce="${nonce}"`);
  expect(res!.headers()["x-content-type-options"]).toBe("nosniff");
  for (const path of ["/favicon.svg", "/logo.svg", "/log/export?type=Warning", "/resources/ConstantsLocal.json"]) {
    expect((await page.request.get(path)).headers()["x-content-type-options"], path).toBe("nosniff");
  }
});

test("odd requests are 4xx, not 500", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const me = { Origin: base };
  expect((await page.request.fetch("/settings", { method: "PUT", headers: me })).status()).toBe(405);
  expect((await page.request.fetch("/settings", { method: "DELETE", headers: me })).status()).toBe(405);
  expect((await page.request.post("/settings", { data: { a: 1 }, headers: me })).status()).toBe(415);
  expect((await page.request.post("/settings", { data: "x", headers: { ...me, "Content-Type": "multipart/form-data" } })).status()).toBe(400);
  expect((await page.request.post("/settings", { data: "no multipart at all", headers: { ...me, "Content-Type": "multipart/form-data; boundary=abc" } })).status()).toBe(400);
  expect((await page.request.post("/settings", { form: { pad: "x".repeat(2 * 1024 * 1024) }, headers: me })).status()).toBe(413);
  // A path that does not decode included (it was Express's bare 400 with a URIError's stack in the log).
  for (const path of ["/log?offset=1e309", "/alarming?offset=-5", "/%ff", "/dashboard/%E0%A4%A"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(400);
    await expect(page.getByTestId("error-400")).toBeVisible();
  }
  // Choices named like Object's own members are no choice (a lookup by them was Object's, and the
  // list's sort or the alarm period threw: 500 on /roleManagement, /variableOverview, /alarming).
  for (const path of SCREENS) {
    for (const query of ["sort=__proto__", "sort=hasOwnProperty&dir=desc", "period=constructor"]) {
      const res = await page.request.get(`${path}?${query}`, { maxRedirects: 0 });
      expect(res.status(), `${path}?${query}`).toBeLessThan(500);
    }
  }
});

// Found by sending every query parameter the screens read odd values (2026-12-01): values passed
// on to the logger that it refuses came back as the logger's 400, which the screens answered 500.
test("odd values in an address are a 400 page or the screen's own answer, never 500", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  // A NUL anywhere in the address (the logger refuses one in every parameter): the 400 page, once for all screens.
  for (const path of SCREENS) {
    const res = await page.request.get(`${path}?q=a%00b`, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
  }
  for (const path of ["/alarming?device=%00", "/measurementUI?key=%00", "/dashboardManager?edit=%00"]) {
    expect((await page.request.get(path)).status(), path).toBe(400);
  }
  // A log position past any entry's: 400, as an offset past any page's.
  for (const since of ["1e308", "9999999999999999999999"]) expect((await page.request.get(`/traceLog?since=${since}`)).status(), since).toBe(400);
  // An id no dashboard can have (a line break, 300 characters), which the logger refuses: no such dashboard.
  for (const id of ["a%0Ab", "x".repeat(300)]) {
    expect((await page.request.get(`/dashboardManager?export=${id}`)).status(), `export=${id}`).toBe(200);
    const res = await page.goto(`/dashboardManager?edit=${id}`);
    expect(res?.status(), `edit=${id}`).toBe(200);
    await expect(page.getByText("This dashboard no longer exists")).toBeVisible();
  }
});

test("a GET of the export download goes back to the export form with its choices", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/export/csv?mode=resampled&interval=60&span=preset&preset=1h");
  await expect(page).toHaveURL(/\/export\?mode=resampled&interval=60&span=preset&preset=1h$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a new Jupyter or tile server address reloads the page, so its policy allows the new one", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled === false, "without JavaScript every page is a fresh document anyway");
  const jupyter = "http://127.0.0.1:39997/lab";
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/globalSettings");
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByLabel("Jupyter Lab address").fill(jupyter);
    const [doc] = await Promise.all([page.waitForResponse((r) => r.request().resourceType() === "document" && r.url().endsWith("/globalSettings")), page.getByRole("button", { name: "Save settings" }).click()]);
    await expect(page.getByTestId("toast-success")).toHaveText("Successfully set settings");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBeUndefined();
    expect(doc.headers()["content-security-policy"]).toContain("frame-src 'self' http://127.0.0.1:39997");
  } finally {
    await setGlobalSettings({ JupyterUrl: "" });
  }
});
