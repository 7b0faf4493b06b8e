import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

// Issue 14 §3 through the routes themselves: every route that redirects to a target the client
// names (sign-in's redirect_uri, the banner's and the alarm acknowledgement's redirectTo) must
// leave it on this console — safePath's table (tests/unit/console/redirects.test.ts) only
// helps if each route asks it. Request-level: the Location header is what a browser follows.

const base = `http://localhost:${process.env.E2E_PORT}`;
const me = { Origin: base };

// Targets that are, or normalise to, another origin (protocol-relative after dot segments or
// decoding, backslashes, schemes, controls).
const OFF_SITE = [
  "//evil.example/x",
  "https://evil.example/",
  "/\\evil.example",
  "/%5Cevil.example",
  "/a/..//evil.example",
  "/%2e%2e//evil.example",
  "/%252F%252Fevil.example",
  "/%09/evil.example",
  "javascript:alert(1)",
];

/** Where a Location header leads from a page of the console, as a browser resolves it. */
function leadsTo(location: string | undefined): URL {
  expect(location, "a redirect").toBeTruthy();
  return new URL(location!, `${base}/some/page`);
}

test("sign-in's redirect_uri never leads off the console", async ({ page }) => {
  for (const target of OFF_SITE) {
    const res = await page.request.post("/signin", {
      form: { username: "admin", password: ADMIN_PASSWORD, redirect_uri: target },
      headers: me,
      maxRedirects: 0,
    });
    expect(res.status(), target).toBe(302);
    const url = leadsTo(res.headers()["location"]);
    expect(url.origin, target).toBe(base);
    expect(url.pathname.startsWith("//"), target).toBe(false);
  }
  // A path on the console is followed, with its query as it was (an encoded "%" included).
  for (const target of ["/settings", "/log?text=100%25"]) {
    const res = await page.request.post("/signin", { form: { username: "admin", password: ADMIN_PASSWORD, redirect_uri: target }, headers: me, maxRedirects: 0 });
    expect(res.headers()["location"]).toBe(target);
  }
});

test("the banner's dismiss route and the alarm acknowledgement keep their return path on the console", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  for (const target of OFF_SITE) {
    const dismissed = await page.request.post("/banner/dismiss", { form: { text: "maintenance", redirectTo: target }, headers: me, maxRedirects: 0 });
    expect(dismissed.status(), target).toBe(302);
    expect(leadsTo(dismissed.headers()["location"]).origin, target).toBe(base);
    expect(dismissed.headers()["location"]!.startsWith("//"), target).toBe(false);

    // An alarm that does not exist: the logger's refusal comes back as a toast on the return path.
    const acked = await page.request.post("/dashboard/acknowledge", { form: { intent: "acknowledge", id: "999999", redirectTo: target }, headers: me, maxRedirects: 0 });
    expect(acked.status(), target).toBe(302);
    expect(leadsTo(acked.headers()["location"]).origin, target).toBe(base);
    expect(acked.headers()["location"]!.startsWith("//"), target).toBe(false);
  }
  const back = await page.request.post("/banner/dismiss", { form: { text: "maintenance", redirectTo: "/settings?x=1" }, headers: me, maxRedirects: 0 });
  expect(back.headers()["location"]).toBe("/settings?x=1");
});
