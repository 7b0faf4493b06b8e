import type { IncomingMessage, ServerResponse } from "node:http";
import type { ZodType, z } from "zod";
import type { Caller, LoggerContext } from "../api/registry.ts";
import { PASSWORD_CHANGE_REQUIRED, authenticateRpc } from "../auth/caller.ts";
import type { PermissionName } from "../auth/permissions.ts";
import { auditAs } from "../store/messages.ts";
import { parseJsonObject, readBody, refuseNul } from "./body.ts";
import { requireBodyType } from "./content-type.ts";
import type { BodyKind } from "./content-type.ts";
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

export type RestRoute = {
  method: string;
  pattern: RegExp;
  /** What the body holds: JSON unless the route takes a file's raw bytes (content-type.ts). */
  body?: Extract<BodyKind, "json" | "bytes">;
  handler: (r: RestRequest) => unknown | Promise<unknown>;
};

export function sendData(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { Success: true, Data: data, ReturnState: { Value: 0, Description: "OK" } });
}

export function sendRestError(res: ServerResponse, status: number, value: number, description: string, headers: Record<string, string> = {}, coded: { Code?: string; Args?: Record<string, string | number> } = {}): void {
  const more = coded.Code ? { Code: coded.Code, Args: coded.Args ?? {} } : {};
  sendJson(res, status, { Success: false, ReturnState: { Value: value, Description: description, ...more } }, headers);
}

/**
 * The body with every object key whose value is null left out, `depth` levels down (no route
 * reads deeper; an unbounded walk of a deeply nested body would overflow the stack). Clients of
 * the family send an optional parameter as null (Python's None) as often as they leave it out,
 * and the contract's `?` means either: `End: null` must not become End 0.
 */
function cleanBody(value: unknown, depth: number): unknown {
  if (depth < 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((x) => cleanBody(x, depth - 1));
  // fromEntries defines own properties: a "__proto__" key stays a key, not a prototype.
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null ? [] : [[k, cleanBody(v, depth - 1)]])));
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
    requireBodyType(req, hit.r.body ?? "json");
    const auth = await authenticateRpc(ctx.db, req);
    if (auth.state === "password-change") throw forbidden(PASSWORD_CHANGE_REQUIRED);
    if (auth.state !== "ok") throw unauthorized(auth.state === "expired" ? "Token expired" : "Authentication required");
    const caller = auth.caller;
    const url = new URL(req.url ?? "/", "http://logger");
    let args: string[];
    try {
      args = hit.m!.slice(1).map((s) => decodeURIComponent(s));
    } catch {
      // "%E0%A4" or "%zz" in an id: the client's mistake, not an internal error.
      throw invalidParam(`Malformed percent-encoding in path ${path}`);
    }
    if (args.some((a) => a.includes("\0"))) throw invalidParam("Invalid path: an id holds a NUL character (%00)");
    const r: RestRequest = {
      req,
      res,
      ctx,
      url,
      args,
      caller,
      require(permission) {
        if (!caller.permissions.has(permission)) throw forbidden(`Permission denied: ${permission} required`);
      },
      async input(schema) {
        // A NUL in a text: no id, name or setting has one, and PostgreSQL cannot even look one up
        // (an internal error there, a "not found" on SQLite). JSON bodies are checked as parsed.
        const query = req.method === "GET" || req.method === "DELETE" ? Object.fromEntries(url.searchParams) : null;
        if (query) refuseNul(query);
        const raw = cleanBody(query ?? parseJsonObject(await readBody(req)), 3);
        const parsed = schema.safeParse(raw);
        if (!parsed.success) throw invalidParam(describeZodError(parsed.error));
        return parsed.data;
      },
      audit: (text) => auditAs(ctx.db, caller.username, text, ctx.trace),
    };
    await hit.r.handler(r);
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    if (!res.headersSent) sendRestError(res, err.status, err.value, err.message, err.headers, { Code: err.code, Args: err.args });
    else res.destroy();
  }
}
