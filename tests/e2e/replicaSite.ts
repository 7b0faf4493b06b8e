import type { APIResponse, Page } from "@playwright/test";
import { createCookieSessionStorage } from "react-router";
import { startProxySite, UPSTREAM_HEADER, type ProxySite } from "../support/proxySite.ts";
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

const storage = createCookieSessionStorage({ cookie: { name: "loggia_session", secrets: [REPLICA_SECRET], path: "/", httpOnly: true, sameSite: "lax" } });

/** The session data a loggia_session cookie value carries (signature checked). */
export async function readSession(value: string): Promise<Record<string, unknown>> {
  return (await storage.getSession(`loggia_session=${value}`)).data as Record<string, unknown>;
}

/** A cookie value with the same session data but `changes` applied, signed as the consoles sign. */
export async function rewriteSession(value: string, changes: Record<string, unknown>): Promise<string> {
  const session = await storage.getSession(`loggia_session=${value}`);
  for (const [key, v] of Object.entries(changes)) session.set(key, v);
  const header = (await storage.commitSession(session)).split(";")[0]!;
  return header.slice(header.indexOf("=") + 1);
}

/** The loggia_session value an answer set (undefined: it set none). */
export function setSession(res: APIResponse): string | undefined {
  const line = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("loggia_session="));
  return line?.value.split(";")[0]!.slice("loggia_session=".length);
}
