import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

// Issue 25: a worker keeps its browser context between tests (fixtures.ts, keptContexts) so the
// console's bundles stay cached; everything else a test leaves behind must be gone for the next.
// The tests of a file run in order in one worker: the first leaves state, the second looks for it.

test("a test leaves cookies, storage, offline mode, headers and a route behind", async ({ page, context }) => {
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

test("the next test of the worker finds none of it, and the bundles still cached", async ({ page, context, baseURL }) => {
  expect(await context.cookies()).toEqual([]);
  expect(context.pages()).toEqual([page]);
  // Online again (the page loads), no route (a 404 from the console, not "routed").
  const answer = await page.goto("/left-behind");
  expect(answer?.status()).toBe(404);
  expect(await answer?.text()).not.toBe("routed");
  expect(await answer?.request().allHeaders()).not.toHaveProperty("x-left-behind");
  expect(await page.evaluate(() => [localStorage.getItem("left-behind"), sessionStorage.getItem("left-behind")])).toEqual([null, null]);
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
