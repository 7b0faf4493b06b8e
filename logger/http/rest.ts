import type { IncomingMessage, ServerResponse } from "node:http";
import type { ZodType, z } from "zod";
import type { Caller, LoggerContext } from "../api/registry.ts";
import { PASSWORD_CHANGE_REQUIRED, authenticateRpc } from "../auth/caller.ts";
import type { PermissionName } from "../auth/permissions.ts";
import { auditAs } from "../store/messages.ts";
import { parseJsonObject, readBody } from "./body.ts";
import { RpcError, describeZodError, forbidden, invalidParam, unauthorized } from "./errors.ts";
import { sendJson } from "./respond.ts";

// The REST data API (/online, /buffer, /history): JSON answers `{Success, Data}`, errors
// `{Success: false, ReturnState}` with the same status codes and values as RPC.

export type RestRequest = {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: LoggerContext;
  url: URL;
  /** Path segments captured by the route pattern. */
  args: string[];
  caller: Caller;
  /** Throws 403 unless the caller holds the permission. */
  require(permission: PermissionName): void;
  /** JSON body (POST) or query parameters (GET), validated. */
  input<S extends ZodType>(schema: S): Promise<z.output<S>>;
  /** Await it; a failure is also logged to the trace (see CallContext.audit). */
  audit(text: string): Promise<void>;
};

export type RestRoute = { method: string; pattern: RegExp; handler: (r: RestRequest) => unknown | Promise<unknown> };

export function sendData(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { Success: true, Data: data, ReturnState: { Value: 0, Description: "OK" } });
}

export function sendRestError(res: ServerResponse, status: number, value: number, description: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { Success: false, ReturnState: { Value: value, Description: description } }, headers);
}

export const REST_PREFIXES = ["/online/", "/buffer/", "/history/", "/files/"];

export async function handleRest(req: IncomingMessage, res: ServerResponse, path: string, ctx: LoggerContext, routes: RestRoute[]): Promise<void> {
  try {
    const matches = routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
    if (matches.length === 0) return sendRestError(res, 404, -4, `Not found: ${path}`);
    const hit = matches.find((x) => x.r.method === req.method);
    if (!hit) {
      const allow = [...new Set(matches.map((x) => x.r.method))].join(", ");
      return sendRestError(res, 405, -3, `Use ${allow} for ${path}`, { Allow: allow });
    }
    const auth = await authenticateRpc(ctx.db, req);
    if (auth.state === "password-change") throw forbidden(PASSWORD_CHANGE_REQUIRED);
    if (auth.state !== "ok") throw unauthorized(auth.state === "expired" ? "Token expired" : "Authentication required");
    const caller = auth.caller;
    const url = new URL(req.url ?? "/", "http://logger");
    const r: RestRequest = {
      req,
      res,
      ctx,
      url,
      args: hit.m!.slice(1).map((s) => decodeURIComponent(s)),
      caller,
      require(permission) {
        if (!caller.permissions.has(permission)) throw forbidden(`Permission denied: ${permission} required`);
      },
      async input(schema) {
        const raw = req.method === "GET" || req.method === "DELETE" ? Object.fromEntries(url.searchParams) : parseJsonObject(await readBody(req));
        const parsed = schema.safeParse(raw);
        if (!parsed.success) throw invalidParam(describeZodError(parsed.error));
        return parsed.data;
      },
      audit: (text) => auditAs(ctx.db, caller.username, text, ctx.trace),
    };
    await hit.r.handler(r);
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    if (!res.headersSent) sendRestError(res, err.status, err.value, err.message, err.headers);
    else res.destroy();
  }
}
