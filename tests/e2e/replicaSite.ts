import type { APIResponse, Page } from "@playwright/test";
import { startProxySite, UPSTREAM_HEADER, type ProxySite } from "../support/proxySite.ts";
import { openSessionCookie, sealedSessionCookie } from "../support/sessionCookie.ts";
import { LOGGER, expect } from "./fixtures";

// Two console processes of the built app behind Debian's nginx, round-robin with no stickiness
// (tests/support/proxySite.ts), against the run's embedded logger: what the replica specs use.

export const REPLICA_SECRET = "e2e-replica-secret-0123456789abcdef";

export function startReplicaSite(): Promise<ProxySite> {
  // The consoles believe the proxy's X-Forwarded-* (TRUST_PROXY), which then requires the
  // deployment's shared secret (given by startProxySite to both).
  return startProxySite({ loggerUrl: LOGGER, consoles: 2, tellUpstream: true, sessionSecret: REPLICA_SECRET, consoleEnv: () => ({ TRUST_PROXY: "1" }) });
}

/** Which console (0 or 1) answered, from the header the test site's nginx adds. */
export function replicaOf(site: ProxySite, res: APIResponse | { headers(): Record<string, string> }): number {
  const index = site.replicaOf(res.headers()[UPSTREAM_HEADER]);
  expect(index, `${UPSTREAM_HEADER}: ${res.headers()[UPSTREAM_HEADER]}`).toBeGreaterThanOrEqual(0);
  return index;
}

export async function signInAt(page: Page, origin: string, username: string, password: string) {
  await page.goto(`${origin}/signin`);
  await page.getByLabel(/username|nome utente/i).fill(username);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/signin"));
}

/** The session data a loggia_session cookie value carries (opened with the deployment's secret). */
export function readSession(value: string): Promise<Record<string, unknown>> {
  return openSessionCookie([REPLICA_SECRET], value);
}

/** A cookie value with the same session data but `changes` applied, sealed as the consoles seal it. */
export async function rewriteSession(value: string, changes: Record<string, unknown>): Promise<string> {
  return sealedSessionCookie([REPLICA_SECRET], { ...(await readSession(value)), ...changes });
}

/** The loggia_session value an answer set (undefined: it set none). */
export function setSession(res: APIResponse): string | undefined {
  const line = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("loggia_session="));
  return line?.value.split(";")[0]!.slice("loggia_session=".length);
}
