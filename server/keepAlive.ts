// How long the console keeps an idle keep-alive connection. The logger has its own setting
// (logger/server.ts) for the same reason; the two share no code (ARCHITECTURE.md).
import type { Server } from "node:http";

/**
 * Longer than the pools of the console's clients keep an idle connection (Node's global agent:
 * 5 s; an nginx upstream's keepalive_timeout: 60 s by default), so the client closes it first.
 * Node's own default (5 s) is the clients' time: a request sent on a connection the server was
 * closing at that moment failed with ECONNRESET (a fresh-clone CI run: Playwright's request of
 * /versionInfo on a connection idle for five seconds). Shutdown closes idle connections at once
 * (server/main.ts), so this delays nothing.
 */
export const IDLE_KEEP_ALIVE_MS = 65_000;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
}
