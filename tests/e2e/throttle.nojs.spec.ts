import { blockSignIns, createUser, expect, test } from "./fixtures";

// The logger's sign-in throttle seen from the sign-in page (issue 14), with JavaScript (project
// js) and without (nojs): a translated message with the wait, the username kept, and the right
// password accepted again once the wait is over. The account's failures come from a made-up
// address so that the browser's own address (shared by every test) keeps its allowance.

test("the sign-in page says how long to wait, keeps the username, and lets the right password in afterwards", async ({ page }) => {
  test.setTimeout(90_000);
  const user = await createUser("Viewer");
  await blockSignIns(user.username, 5);

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
    await blockSignIns(user.username, 5);
    await page.goto("/signin");
    await page.getByLabel(/nome utente/i).fill(user.username);
    await page.getByLabel(/^password$/i).fill(user.password);
    await page.getByLabel(/^password$/i).press("Enter");
    await expect(page.getByTestId("signin-throttled")).toHaveText(/^Troppi tentativi falliti\. Riprova tra \d+ second[oi]\.$/);
  });
});
