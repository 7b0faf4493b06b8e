import type { IncomingMessage, ServerResponse } from "node:http";
import { PASSWORD_CHANGE_REQUIRED, authenticateRpc } from "../auth/caller.ts";
import type { Access, CallContext, Caller, LoggerContext, Registry } from "../api/registry.ts";
import { addressKey } from "../auth/throttle.ts";
import { auditAs } from "../store/messages.ts";
import { parseJsonObject, readBody } from "./body.ts";
import { requireBodyType } from "./content-type.ts";
import type { TokenAuthentication } from "../auth/caller.ts";
import { describeZodError, forbidden, invalidParam, notFound, unauthorized } from "./errors.ts";
import { sendReturnState } from "./respond.ts";

function authorize(access: Access, auth: TokenAuthentication): void {
  if (access === "public") return;
  if (auth.state === "password-change") throw forbidden(PASSWORD_CHANGE_REQUIRED);
  if (auth.state !== "ok") throw unauthorized(auth.state === "expired" ? "Token expired" : "Authentication required");
  if (access === null) return;
  const anyOf: readonly string[] = typeof access === "string" ? [access] : access;
  if (!anyOf.some((perm) => auth.caller.permissions.has(perm))) {
    throw forbidden(`Permission denied: ${anyOf.join(" or ")} required`);
  }
}

export async function handleRpc(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  registry: Registry,
  base: LoggerContext,
): Promise<void> {
  if (req.method !== "POST") {
    return sendReturnState(res, 405, -3, `Use POST for ${key}`, {}, { Allow: "POST" });
  }
  const m = Object.hasOwn(registry, key) ? registry[key] : undefined;
  if (!m) throw notFound(`Unknown method ${key}`);
  requireBodyType(req, "json");
  const body = parseJsonObject(await readBody(req, m.maxBody));

  // Auth before validation where possible, so an anonymous caller learns nothing about params.
  const auth = await authenticateRpc(base.db, req, { passwordChange: m.duringPasswordChange === true });
  if (typeof m.permission !== "function") authorize(m.permission, auth);
  const parsed = m.params.safeParse(body);
  if (!parsed.success) throw invalidParam(describeZodError(parsed.error));
  if (typeof m.permission === "function") {
    const decide = m.permission as (p: unknown, c: Caller | null) => Access;
    authorize(decide(parsed.data, auth.caller), auth);
  }

  const caller = auth.caller;
  const ctx: CallContext = {
    ...base,
    caller,
    get me(): Caller {
      if (!caller) throw new Error(`${key} used the caller on a public call`);
      return caller;
    },
    audit: (text, q) => auditAs(q ?? base.db, caller?.username ?? "anonymous", text, base.trace),
    clientAddress: addressKey(req.socket.remoteAddress),
  };
  const handler = m.handler as (p: unknown, c: CallContext) => object | Promise<object>;
  const result = await handler(parsed.data, ctx);
  sendReturnState(res, 200, 0, "OK", result as Record<string, unknown>);
}
