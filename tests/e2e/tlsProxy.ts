import { startProxySite } from "../support/proxySite.ts";

// A deployment as a real site has it: Debian's nginx terminating TLS (a throwaway self-signed
// certificate from openssl) in front of a console of its own, which uses the run's embedded
// logger (tests/support/proxySite.ts starts them).

export interface TlsSite {
  /** https://localhost:<port> — what the browser uses. */
  origin: string;
  consolePort: number;
  stop(): Promise<void>;
}

/**
 * Starts a console (with `consoleEnv`, e.g. TRUST_PROXY=1 or PUBLIC_ORIGIN) and nginx in front of
 * it on https://localhost:<spare port>: proxied as a deployment would (Host, X-Forwarded-Proto,
 * -Host and -For, WebSocket upgrades, no buffering for the live stream, uploads up to 25 MB).
 */
export async function startTlsSite(consoleEnv: (httpsPort: number) => Record<string, string>): Promise<TlsSite> {
  const site = await startProxySite({
    loggerUrl: `http://127.0.0.1:${process.env.E2E_LOGGER_PORT}`,
    tls: true,
    consoleEnv,
    sessionSecret: "e2e-tls-secret-0123456789abcdef",
  });
  return { origin: site.origin, consolePort: site.consolePorts[0]!, stop: site.stop };
}
