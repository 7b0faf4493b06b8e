import { blockSignInsFromBrowser, createUser, exhaustAccountBudget, expect, signIn, signOut, test } from "./fixtures";

// The logger's sign-in throttle seen from the sign-in page (issues 14 and 24), with JavaScript
// (project js) and without (nojs): a translated message with the wait, the username kept, and the
// right password accepted again once the wait is over; and a browser that signed in as the user
// before gets in while attackers elsewhere have used up the account (its device cookie).

test("the sign-in page says how long to wait, keeps the username, and lets the right password in afterwards", async ({ page }) => {
  test.setTimeout(90_000);
  const user = await createUser("Viewer");
  // Guesses "from this browser's address": the wait is that address's on the account, short.
  await blockSignInsFromBrowser(user.username, 5);

  await page.goto("/signin");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const message = page.getByTestId("signin-throttled");
  await expect(message).toHaveText(/^Too many failed attempts\. Try again in \d+ seconds?\.$/);
  await expect(message).toHaveAttribute("role", "alert");
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByLabel("Username")).toHaveValue(user.username);
  // Not the wrong-password toast: the password was never checked.
  await expect(page.getByTestId("toast-error")).toHaveCount(0);

  const seconds = Number(/in (\d+) second/.exec((await message.textContent()) ?? "")![1]);
  await page.waitForTimeout(seconds * 1000 + 300);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await expect(page.getByTestId("toast-success")).toHaveText("Login successfully!");
});

test.describe("in Italian", () => {
  test.use({ locale: "it-IT" });
  test("the wait is said in the browser's language", async ({ page }) => {
    test.setTimeout(90_000);
    const user = await createUser("Viewer");
    // Attackers from many addresses: a browser that never signed in as the user waits minutes.
    await exhaustAccountBudget(user.username);
    await page.goto("/signin");
    await page.getByLabel(/nome utente/i).fill(user.username);
    await page.getByLabel(/^password$/i).fill(user.password);
    await page.getByLabel(/^password$/i).press("Enter");
    await expect(page.getByTestId("signin-throttled")).toHaveText(/^Troppi tentativi falliti\. Riprova tra \d+ minut[oi]\.$/);
  });
});

test("a browser that signed in as the user before gets in while attackers elsewhere used up the account", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const user = await createUser("Viewer");
  await signIn(page, user.username, user.password);
  const device = (await page.context().cookies()).find((c) => c.name === "loggia_device");
  expect(device, "the device cookie").toMatchObject({ httpOnly: true, sameSite: "Lax" });
  await signOut(page);

  const wait = await exhaustAccountBudget(user.username);
  expect(wait).toBeGreaterThan(60);
  await signIn(page, user.username, user.password);
  await expect(page.getByTestId("toast-success")).toHaveText("Login successfully!");

  // Another browser (no device cookie) with the right password is told to wait.
  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto("/signin");
    await other.getByLabel("Username").fill(user.username);
    await other.getByLabel("Password").fill(user.password);
    await other.getByRole("button", { name: "Sign in" }).click();
    await expect(other.getByTestId("signin-throttled")).toHaveText(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
  } finally {
    await elsewhere.close();
  }
});
