import { createServer, type Socket } from "node:net";
import { CONSOLE_NODE_FLAGS } from "../../server/flags.ts";
import { expect, test } from "./fixtures";
import { freePort, runNode, waitFor } from "./stack";

// A console told to stop (SIGTERM: npm start's supervisor, a service manager, a test's teardown)
// exits once its own connections have ended. A request it made to the logger and still waits on
// (up to LOGGER_TIMEOUT_MS) must not keep it alive: that held a stopped console for up to 15 s.

test("a stopped console exits at once, even while a request to the logger is still pending", async () => {
  test.setTimeout(45_000);
  // A "logger" that takes connections and never answers: the console's request waits on it.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  const loggerPort = await freePort();
  await new Promise<void>((done) => silent.listen(loggerPort, "127.0.0.1", done));
  const port = await freePort();
  const child = runNode([...CONSOLE_NODE_FLAGS, "server/main.ts", "build/server/index.js"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    LOGGER_URL: `http://127.0.0.1:${loggerPort}`,
    LOGGER_TIMEOUT_MS: "60000",
    NODE_ENV: "production",
    SESSION_SECRET: "e2e-shutdown-secret-0123456789abcdef",
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    // Up once a static file is served (that asks the logger nothing).
    await waitFor(`${url}/favicon.svg`);
    // A page that asks the logger: it is still loading, and the console still waiting, at the stop.
    const page = fetch(`${url}/signin`, { signal: AbortSignal.timeout(60_000) }).catch(() => null);
    await expect.poll(() => sockets.size, { timeout: 10_000 }).toBeGreaterThan(0);
    const exited = new Promise<number>((done) => child.once("exit", () => done(Date.now())));
    const stoppedAt = Date.now();
    child.kill("SIGTERM");
    // The page's own connection is given its grace (5 s), then cut; the logger's 60 s are not waited for.
    const took = (await exited) - stoppedAt;
    expect(took).toBeLessThan(15_000);
    expect(child.exitCode).toBe(0);
    await page;
  } finally {
    child.kill("SIGKILL");
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
