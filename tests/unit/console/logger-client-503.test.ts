import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoggerClient } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { usersAnswer } from "~/services/logger/schemas";

// Issue 17: a logger whose PostgreSQL store is away answers 503 ("The logger's database is
// unreachable"); the console must treat that like an unreachable logger (its outage page, data
// 503), not as an unexpected error (the 500 page). Other refusals stay LoggerErrors.
let server: Server;
let url = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const status = req.url!.includes("Missing") ? 404 : 503;
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ ReturnState: { Value: -12, Description: status === 503 ? "The logger's database is unreachable: connect ECONNREFUSED" : "not found" } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = () =>
  new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 2000 }, { get: () => ({ accessToken: "a", refreshToken: undefined }), set: () => {} });

describe("a logger answering 503", () => {
  it("is the outage (data 503) for RPC, REST and streams", async () => {
    for (const call of [
      () => client().rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer),
      () => client().rest("GET", "/online/structure/variables", undefined, usersAnswer),
      () => client().stream("/history/export", "POST", {}),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(LoggerError);
      expect((error as { init?: { status?: number } }).init?.status).toBe(503);
    }
  });

  it("other refusals stay LoggerErrors", async () => {
    const error = await client().rpc("Missing", {}, usersAnswer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoggerError);
    expect((error as LoggerError).status).toBe(404);
  });
});
