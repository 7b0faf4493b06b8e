import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago, for the servers tests and benches start. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * Starts a server with `listen(port)` on `given`, else on a free port, and returns the port.
 * A free port can be taken between freePort() and the server's listen — by a suite running
 * beside this one (`npm test` runs the unit and PostgreSQL suites side by side; seen once in a
 * fresh-clone run) — so then another is tried, up to five. A port the caller gave is not changed.
 */
export async function listenOnFreePort(given: number | undefined, listen: (port: number) => Promise<void>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = given ?? (await freePort());
    try {
      await listen(port);
      return port;
    } catch (e) {
      if (given !== undefined || attempt === 5 || !String((e as Error).message).includes("EADDRINUSE")) throw e;
    }
  }
}
