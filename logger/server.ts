import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { LoggerContext } from "./api/registry.ts";
import { makeClients } from "./auth/clients.ts";
import { passwordPolicyError } from "./auth/passwords.ts";
import { createRequestHandler } from "./http/router.ts";
import { openDb } from "./store/db.ts";
import { migrate } from "./store/migrations.ts";
import { seed } from "./store/seed.ts";

export type LoggerOptions = {
  port?: number;
  host?: string;
  dataDir: string;
  controller?: boolean;
  adminPassword?: string;
  clientId?: string;
  clientSecret?: string;
  accessTtlSec?: number;
  refreshTtlSec?: number;
  log?: (line: string) => void;
};

export type RunningLogger = { url: string; port: number; close(): Promise<void> };

export async function startLogger(opts: LoggerOptions): Promise<RunningLogger> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (opts.adminPassword !== undefined) {
    const problem = passwordPolicyError(opts.adminPassword, "admin");
    if (problem) throw new Error(`Admin password rejected: ${problem}`);
  }

  const db = openDb(opts.dataDir);
  try {
    migrate(db);
    await seed(db, opts.adminPassword);
  } catch (err) {
    db.close();
    throw err;
  }

  const ctx: LoggerContext = {
    db,
    controller: opts.controller ?? false,
    clients: makeClients(opts.clientId ?? "loggia-console", opts.clientSecret ?? "loggia-console-secret"),
    ttl: { accessTtlSec: opts.accessTtlSec ?? 900, refreshTtlSec: opts.refreshTtlSec ?? 604800 },
  };

  const server = createServer(createRequestHandler(ctx, log));
  // Without a bound, a client that never finishes its request would hold a socket forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;

  const host = opts.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    db.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => {
        db.close();
        resolve();
      });
      server.closeIdleConnections();
      // Requests still running after this grace period are cut off.
      setTimeout(() => server.closeAllConnections(), 2000).unref();
    }));

  return { url: `http://${urlHost}:${port}`, port, close };
}
