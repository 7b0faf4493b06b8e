import type { IncomingMessage, ServerResponse } from "node:http";
import { registry } from "../api/index.ts";
import type { LoggerContext } from "../api/registry.ts";
import { handleRevoke, handleToken, handleVerify } from "../auth/oauth.ts";
import { RpcError } from "./errors.ts";
import { foreignRefusal } from "./origin.ts";
import { sendJson, sendReturnState } from "./respond.ts";
import { REST_PREFIXES, handleRest } from "./rest.ts";
import { handleRevision } from "./revision.ts";
import { handleRpc } from "./rpc.ts";
import { dataRoutes } from "../api/data/index.ts";

async function route(req: IncomingMessage, res: ServerResponse, path: string, ctx: LoggerContext): Promise<void> {
  if (path.startsWith("/rpc/")) {
    let key: string;
    try {
      key = decodeURIComponent(path.slice(5));
    } catch {
      return sendReturnState(res, 404, -4, `Unknown method ${path.slice(5)}`);
    }
    return handleRpc(req, res, key, registry, ctx);
  }
  const oauth = { "/token": handleToken, "/verify": handleVerify, "/revoke": handleRevoke }[path];
  if (oauth) {
    if (req.method !== "POST") {
      return sendJson(res, 405, { error: "invalid_request", error_description: "Use POST" }, { Allow: "POST" });
    }
    return oauth(req, res, ctx);
  }
  if (path === "/revision") {
    if (req.method !== "GET") return sendReturnState(res, 405, -5, "Use GET", {}, { Allow: "GET" });
    return handleRevision(res, ctx);
  }
  if (REST_PREFIXES.some((p) => path.startsWith(p))) return handleRest(req, res, path, ctx, dataRoutes);
  return sendReturnState(res, 404, -4, `Not found: ${path}`);
}

/** 403 in every client's words at once: RPC and REST read ReturnState (and Success), OAuth clients error. */
function sendRefusal(res: ServerResponse, description: string): void {
  sendJson(res, 403, { Success: false, error: "access_denied", error_description: description, ReturnState: { Value: -3, Description: description } });
}

// Every request ends here: errors become answers, never a crashed process.
export function createRequestHandler(ctx: LoggerContext, log: (line: string) => void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // Only the path is ever logged: query strings and headers may carry secrets.
    let path = "/";
    try {
      path = new URL(req.url ?? "/", "http://logger").pathname;
      // Before anything else: a request a foreign page sent changes nothing and reads no body.
      const foreign = foreignRefusal(req, ctx.site);
      if (foreign) {
        ctx.trace.add("warn", "http", `${req.method} ${path}: ${foreign}`);
        return sendRefusal(res, foreign);
      }
      await route(req, res, path, ctx);
    } catch (err) {
      if (err instanceof RpcError) {
        if (!res.headersSent) sendReturnState(res, err.status, err.value, err.message, err.extra, err.headers, { Code: err.code, Args: err.args });
      } else if (!res.headersSent && !req.destroyed) {
        log(`error ${req.method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        ctx.trace.add("error", "http", `${req.method} ${path}: ${err instanceof Error ? err.message : String(err)}`);
        sendReturnState(res, 500, -5, "Internal error; see the logger log");
      }
    } finally {
      if (!res.writableEnded && req.destroyed) res.destroy();
      const ms = Math.round(performance.now() - started);
      log(`${new Date().toISOString()} ${req.method} ${path} ${res.statusCode} ${ms}ms`);
      // The trace's own polling would drown everything else; it is left out of the trace.
      if (path !== "/rpc/TraceAPI.GetEntries") {
        ctx.trace.add(res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "debug", "http", `${req.method} ${path} ${res.statusCode} ${ms}ms`);
      }
    }
  };
}
