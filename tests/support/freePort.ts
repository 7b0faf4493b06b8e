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
