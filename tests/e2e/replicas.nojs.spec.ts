import type { ProxySite } from "../support/proxySite.ts";
import { createUser, expect, test } from "./fixtures";
import { replicaOf, signInAt, startReplicaSite } from "./replicaSite";

// Two consoles behind nginx with no sticky sessions (issue 17): a user signs in through one and
// carries on through the other, with JavaScript (js) and without (nojs). Consecutive requests
// with nothing in between alternate between the consoles (round-robin); nginx names the one
// that answered in a header (tests only).

test.describe.configure({ mode: "serial" });

let site: ProxySite;
test.beforeAll(async () => {
  site = await startReplicaSite();
});
test.afterAll(async () => {
  await site?.stop();
});

const sessionCookie = async (page: import("@playwright/test").Page) => (await page.context().cookies()).find((c) => c.name === "loggia_session");

test("a sign-in through one console carries on through the other", async ({ page }) => {
  const user = await createUser("Operator");
  await signInAt(page, site.origin, user.username, user.password);
  // Nothing else of this browser talks to the site now (no page's live stream or polling).
  await page.goto("about:blank");
  const answered: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await page.request.get(`${site.origin}/settings`, { maxRedirects: 0 });
    expect(res.status(), "signed in on every console").toBe(200);
    expect(await res.text()).toContain(user.username);
    answered.push(replicaOf(site, res));
  }
  expect(answered.toSorted()).toEqual([0, 0, 1, 1]);

  // The settings form, posted through one console; the change shows through both.
  await page.goto(`${site.origin}/settings`);
  await page.getByLabel("Theme").selectOption("dark");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");
  await page.goto("about:blank");
  // Until both consoles have answered: a request the browser still had going (its favicon, say)
  // may take a turn of the round-robin between two of ours (a full run saw one console twice).
  const seen = new Set<number>();
  for (let i = 0; i < 6 && seen.size < 2; i++) {
    const res = await page.request.get(`${site.origin}/settings`);
    expect(await res.text()).toMatch(/<html[^>]*data-theme="dark"/);
    seen.add(replicaOf(site, res));
  }
  expect(seen).toEqual(new Set([0, 1]));

  // And the browser itself, page after page.
  for (const path of ["/settings", "/versionInfo", "/settings"]) {
    const res = await page.goto(`${site.origin}${path}`);
    replicaOf(site, res!);
    expect(new URL(page.url()).pathname).toBe(path);
  }
});

test("a sign-out through one console ends the session on the other too, also for a kept copy of the cookie", async ({ page }) => {
  const user = await createUser("Operator");
  await signInAt(page, site.origin, user.username, user.password);
  await page.goto(`${site.origin}/settings`);
  const kept = (await sessionCookie(page))!;
  // Both consoles have seen (and cached the check of) this cookie.
  await page.goto("about:blank");
  const seen = [await page.request.get(`${site.origin}/settings`, { maxRedirects: 0 }), await page.request.get(`${site.origin}/settings`, { maxRedirects: 0 })];
  expect(seen.map((r) => r.status())).toEqual([200, 200]);
  expect(new Set(seen.map((r) => replicaOf(site, r)))).toEqual(new Set([0, 1]));

  // The sign-out form's post (an empty form), as the browser sends it.
  const out = await page.request.post(`${site.origin}/logout`, { headers: { Origin: site.origin, "Content-Type": "application/x-www-form-urlencoded" }, data: "", maxRedirects: 0 });
  expect(out.status()).toBe(302);
  const signedOutOn = replicaOf(site, out);

  // The copy goes to both consoles: each refuses it (the logger ended the sign-in).
  // (fetch: no cookie jar of its own, exactly this cookie goes.)
  const withCopy = async () => {
    const res = await fetch(`${site.origin}/settings`, { headers: { Cookie: `loggia_session=${kept.value}` }, redirect: "manual" });
    await res.body?.cancel();
    return { status: res.status, location: res.headers.get("location"), headers: () => Object.fromEntries(res.headers) };
  };
  const again = [await withCopy(), await withCopy()];
  expect(new Set(again.map((r) => replicaOf(site, r)))).toEqual(new Set([0, 1]));
  for (const res of again) {
    expect(res.status, `console ${replicaOf(site, res)} (signed out on ${signedOutOn})`).toBe(302);
    expect(res.location).toMatch(/\/signin/);
  }
});
