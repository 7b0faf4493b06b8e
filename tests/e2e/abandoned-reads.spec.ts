import { expect, test } from "./fixtures";

// A read React Router abandons mid-stream leaves promises rejected with the abort's reason that
// nobody awaits (its stream decoder's); the page keeps those quiet — a full run failed on two such
// "signal is aborted without reason" errors after a navigation overtook a streaming one — and only
// those: any other uncaught rejection still reaches the console.
test("an abandoned read's aborts are kept quiet, every other uncaught rejection is not", async ({ page }) => {
  await page.goto("/signin");
  const seen = await page.evaluate(
    () =>
      new Promise<Array<[string, boolean]>>((resolve) => {
        const seen: Array<[string, boolean]> = [];
        // Registered after the page's own listener, so it sees what that one decided.
        window.addEventListener("unhandledrejection", (event) => {
          seen.push([event.reason instanceof Error || event.reason instanceof DOMException ? event.reason.name : String(event.reason), event.defaultPrevented]);
          // The test's own error must not fail the test (the console is checked after each test).
          event.preventDefault();
          if (seen.length === 3) resolve(seen);
        });
        const aborted = new AbortController();
        aborted.abort();
        void Promise.reject(aborted.signal.reason);
        void Promise.reject(new TypeError("Failed to fetch"));
        void Promise.reject(new DOMException("timed out", "TimeoutError"));
      }),
  );
  expect(seen).toEqual([
    ["AbortError", true],
    ["TypeError", false],
    ["TimeoutError", false],
  ]);
});
