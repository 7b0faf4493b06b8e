import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, LOGGER, signInDirect, test } from "./fixtures";

// Issue 25: a worker keeps its browser context between tests (fixtures.ts, keptContexts) so the
// console's bundles stay cached, and the context's page (keptPages) so its renderer process
// stays; everything else a test leaves behind must be gone for the next.
// The tests of a file run in order in one worker: the first leaves state, the second looks for it.

let firstPage: Page | null = null;
/** The console under its other loopback name: another origin. */
const otherOrigin = (url: string) => new URL(url).origin.replace("localhost", "127.0.0.1");
const heard: string[] = [];

test("a test leaves cookies, storage, offline mode, headers and a route behind", async ({ page, context }) => {
  firstPage = page;
  // What a test may do to its page: a listener, a route, headers, another size, history.
  page.on("console", (m) => heard.push(m.text()));
  await page.route("**/left-behind-page", (route) => route.fulfill({ body: "routed" }));
  await page.setExtraHTTPHeaders({ "X-Left-Behind-Page": "1" });
  await page.setViewportSize({ width: 333, height: 444 });
  await page.goto("/signin?first");
  await page.goto("/signin?second");
  // Session storage alone, on an origin the page then leaves.
  await page.goto(`${otherOrigin(page.url())}/signin`);
  await page.evaluate(() => sessionStorage.setItem("left-behind-elsewhere", "1"));
  // Local storage and a database of an origin the page is never on (the logger's), from a page
  // the test opens and closes.
  const other = await context.newPage();
  await other.goto(`${LOGGER}/`);
  await other.evaluate(async () => {
    localStorage.setItem("left-behind-other-page", "1");
    const request = indexedDB.open("left-behind", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("store");
    await new Promise((done, fail) => {
      request.onsuccess = () => done(request.result.close());
      request.onerror = () => fail(request.error);
    });
  });
  await other.close();
  // The sign-in page, signed out (its bundles are what the next test loads), then signed in.
  await page.goto("/signin");
  await page.evaluate(() => {
    localStorage.setItem("left-behind", "1");
    sessionStorage.setItem("left-behind", "1");
  });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await context.addCookies([{ name: "left_behind", value: "1", url: page.url() }]);
  await context.setExtraHTTPHeaders({ "X-Left-Behind": "1" });
  await context.route("**/left-behind", (route) => route.fulfill({ body: "routed" }));
  await context.setOffline(true);
  expect((await context.cookies()).map((c) => c.name)).toEqual(expect.arrayContaining(["left_behind", "loggia_session"]));
});

test("the next test of the worker finds none of it, and the bundles still cached", async ({ page, context, baseURL, viewport }) => {
  expect(await context.cookies()).toEqual([]);
  expect(context.pages()).toEqual([page]);
  // The same page (no new renderer), as a new one: blank, its size the project's, no listener,
  // route or header of the test before, and none of that test's pages to go back to.
  expect(page).toBe(firstPage);
  expect(page.url()).toBe("about:blank");
  expect(page.viewportSize()).toEqual(viewport);
  await page.evaluate(() => console.log("heard?"));
  expect(heard).toEqual([]);
  const own = await page.goto("/left-behind-page");
  expect(own?.status()).toBe(404);
  expect(await own?.request().allHeaders()).not.toHaveProperty("x-left-behind-page");
  expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(2);
  // Online again (the page loads), no route (a 404 from the console, not "routed").
  const answer = await page.goto("/left-behind");
  expect(answer?.status()).toBe(404);
  expect(await answer?.text()).not.toBe("routed");
  expect(await answer?.request().allHeaders()).not.toHaveProperty("x-left-behind");
  expect(await page.evaluate(() => [localStorage.getItem("left-behind"), sessionStorage.getItem("left-behind")])).toEqual([null, null]);
  await page.goto(`${otherOrigin(page.url())}/signin`);
  expect(await page.evaluate(() => sessionStorage.getItem("left-behind-elsewhere"))).toBeNull();
  await page.goto(`${LOGGER}/`);
  expect(await page.evaluate(async () => [localStorage.getItem("left-behind-other-page"), (await indexedDB.databases()).map((d) => d.name)])).toEqual([null, []]);
  // Signed out: the sign-in page, not the landing page.
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
  // The bundles the first test loaded come from the cache (no bytes over the network).
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e): e is PerformanceResourceTiming => e instanceof PerformanceResourceTiming && e.name.endsWith(".js"))
      .map((e) => ({ name: e.name, transferSize: e.transferSize })),
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s.name.startsWith(new URL(baseURL!).origin)).toBe(true);
  expect(scripts.filter((s) => s.transferSize > 0)).toEqual([]);
});

test("a later test stores on another origin again, in the same page", async ({ page, baseURL }) => {
  expect(page).toBe(firstPage);
  await page.goto(`${otherOrigin(baseURL!)}/signin`);
  await page.evaluate(() => {
    localStorage.setItem("left-behind-again", "1");
    sessionStorage.setItem("left-behind-again", "1");
  });
});

test("the test after it finds that gone too, in the same page", async ({ page, baseURL }) => {
  expect(page).toBe(firstPage);
  await page.goto(`${otherOrigin(baseURL!)}/signin`);
  expect(await page.evaluate(() => [localStorage.getItem("left-behind-again"), sessionStorage.getItem("left-behind-again")])).toEqual([null, null]);
});
