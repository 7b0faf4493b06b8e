import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { OPCUACertificateManager } from "node-opcua-certificate-manager";
import { MessageSecurityMode, OPCUAClient, SecurityPolicy, UserTokenType } from "node-opcua-client";
import type { ClientSession, UserIdentityInfo } from "node-opcua-client";
import type { OpcuaConnection } from "./config.ts";
import { opcuaPkiFolder } from "./opcua-pki.ts";
import { problemText } from "./problems.ts";
import { within } from "./driver.ts";

// What the OPC UA driver and the browse RPC share: one client certificate store in a folder the
// logger controls, how a connection's settings become an OPCUAClient and a session, and readable
// error texts. node-opcua would otherwise put its PKI under ~/.config and may wait on a lock there.

let certificates: { folder: string; manager: OPCUACertificateManager; ready: Promise<void> | null } | null = null;

/**
 * The client's certificate store in opcuaPkiFolder() (see opcua-pki.ts). The client certificate
 * is self-signed and created on first use; server certificates are accepted automatically
 * (trust on first use), as a logger has no operator at hand to approve them.
 */
function certificateManager(): OPCUACertificateManager {
  const folder = opcuaPkiFolder();
  if (certificates?.folder !== folder) {
    mkdirSync(folder, { recursive: true });
    const manager = new OPCUACertificateManager({ rootFolder: folder, automaticallyAcceptUnknownCertificate: true, name: "PKI" });
    // shared by every client: a client's disconnect must not dispose of it
    manager.referenceCounter++;
    certificates = { folder, manager, ready: null };
  }
  return certificates.manager;
}

export function makeClient(c: OpcuaConnection, o: { keepSessionAlive?: boolean } = {}): OPCUAClient {
  return OPCUAClient.create({
    applicationName: "Loggia",
    clientName: "Loggia",
    endpointMustExist: false,
    securityMode: MessageSecurityMode[c.SecurityMode],
    securityPolicy: SecurityPolicy[c.SecurityPolicy],
    clientCertificateManager: certificateManager(),
    // Reconnection is the driver's (a fresh session and subscription each time, so the state it
    // reports is the truth); node-opcua's own would retry silently.
    connectionStrategy: { maxRetry: 0, initialDelay: 1000, maxDelay: 1000 },
    requestedSessionTimeout: 60_000,
    keepSessionAlive: o.keepSessionAlive ?? false,
    transportTimeout: 10_000,
    defaultTransactionTimeout: 10_000,
  });
}

export function identityOf(c: OpcuaConnection & { Password?: string }): UserIdentityInfo {
  if (c.Auth === "user") return { type: UserTokenType.UserName, userName: c.Username, password: c.Password ?? "" };
  return { type: UserTokenType.Anonymous };
}

/** An error whose message is already the readable text (not described again). */
export class OpcuaError extends Error {}

/** Connects and opens a session, bounded by `timeoutMs`; on failure the client is disconnected. */
/**
 * The shared store initialised once, awaited by every client: node-opcua's initialize() returns
 * at once to a second caller while the first is still creating the key, so a browse and a
 * driver connecting together on a fresh PKI failed with "Cannot find private key".
 */
function certificatesReady(): Promise<void> {
  const c = certificates;
  if (!c) return Promise.resolve();
  c.ready ??= c.manager.initialize().catch((e: unknown) => {
    c.ready = null;
    throw e;
  });
  return c.ready;
}

export async function openSession(client: OPCUAClient, c: OpcuaConnection & { Password?: string }, timeoutMs: number, firstSeen?: string | null): Promise<ClientSession> {
  const attempt = (async () => {
    await certificatesReady();
    await client.connect(c.Endpoint);
    // Checked before the session: a server we do not trust never gets the password.
    checkTrust(c, serverFingerprint(client), firstSeen ?? null);
    return client.createSession(identityOf(c));
  })();
  try {
    return await within(attempt, timeoutMs, `No answer from ${c.Endpoint} within ${Math.round(timeoutMs / 1000)} s`);
  } catch (e) {
    attempt.catch(() => {});
    void client.disconnect().catch(() => {});
    throw new OpcuaError(describeOpcuaError(e, c), { cause: e });
  }
}

/** The SHA-256 fingerprint ("3A:5F:…") of the certificate the server presented; null without security (none is used). */
export function serverFingerprint(client: OPCUAClient): string | null {
  const cert = client.serverCertificate;
  const der = Array.isArray(cert) ? cert[0] : cert;
  if (!der || der.length === 0) return null;
  return createHash("sha256").update(der).digest("hex").toUpperCase().match(/../g)!.join(":");
}

/**
 * Decision 0010, "Server certificates": with Trust "fingerprint" only the certificate the operator
 * checked is accepted; with "firstUse" the one seen first (by this driver, since the logger
 * started) is, and a different one later is refused until the operator looks at it.
 */
function checkTrust(c: OpcuaConnection, seen: string | null, firstSeen: string | null): void {
  if (c.SecurityMode === "None") return;
  const where = c.Endpoint;
  if ((c.Trust ?? "firstUse") === "fingerprint" && seen !== c.Fingerprint) {
    throw new OpcuaError(problemText("certificateNotTrusted", { where, detail: `fingerprint ${seen ?? "none"}, expected ${c.Fingerprint}` }));
  }
  if ((c.Trust ?? "firstUse") === "firstUse" && firstSeen && seen !== firstSeen) {
    throw new OpcuaError(problemText("certificateNotTrusted", { where, detail: `fingerprint ${seen ?? "none"} changed since first use, was ${firstSeen}` }));
  }
}

/** A readable text for a connection or session error. */
export function describeOpcuaError(e: unknown, c: Pick<OpcuaConnection, "Endpoint" | "SecurityMode" | "SecurityPolicy">): string {
  if (e instanceof OpcuaError) return e.message;
  const err = (e ?? {}) as { message?: string; code?: string };
  const text = err.message ?? String(e);
  const code = err.code ?? /\b(E[A-Z]{4,})\b/.exec(text)?.[1] ?? "";
  const where = c.Endpoint;
  if (code === "ECONNREFUSED") return problemText("refused", { where });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return problemText("hostNotFound", { where });
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return problemText("unreachable", { where });
  if (code === "ECONNRESET") return problemText("reset", { where });
  if (/BadUserAccessDenied|BadIdentityTokenRejected|BadIdentityTokenInvalid/.test(text)) return problemText("auth", { where });
  if (/BadSecurityPolicyRejected|BadSecurityModeRejected|cannot find endpoint|no endpoint/i.test(text)) {
    return problemText("security", { where, mode: c.SecurityMode, policy: c.SecurityPolicy });
  }
  if (/BadCertificate|certificate/i.test(text) && /Bad/.test(text)) return problemText("certificateRejected", { where, detail: firstLine(text) });
  if (/^No answer from/.test(text) || /timeout|timed out/i.test(text)) return problemText("timeout", { where });
  return `${c.Endpoint}: ${firstLine(text)}`;
}

const firstLine = (s: string) => s.split("\n")[0]!.trim().slice(0, 300);
