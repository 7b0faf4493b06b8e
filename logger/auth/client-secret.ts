import { isIP } from "node:net";

/** The console's client secret as documented (README): anyone may know it. */
export const DOCUMENTED_CLIENT_SECRET = "loggia-console-secret";

/** Whether a listen address is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}

/**
 * Why the logger must not start with this client secret, or null. The console's client may read
 * secrets (VNC target passwords) on behalf of any signed-in user; with the published default any
 * machine that reaches the logger could act as the console. On loopback only the console (and
 * whoever runs on this machine anyway) reaches it, so the default stays fine for a first run.
 */
export function clientSecretProblem(host: string, secret: string): string | null {
  if (secret !== DOCUMENTED_CLIENT_SECRET || isLoopbackHost(host)) return null;
  return `LOGGER_CLIENT_SECRET is the published default "${DOCUMENTED_CLIENT_SECRET}" while the logger listens on ${host}, beyond this machine: set a secret of your own (npm start generates one in DATA_DIR/.client-secret) or listen on 127.0.0.1`;
}
