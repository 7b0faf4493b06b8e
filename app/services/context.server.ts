import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { env } from "./env.server";
import { forgetCachedAnswers } from "./logger/cache.server";
import { LoggerClient } from "./logger/client.server";
import { openSession, sessionStorageFor, type AppSession } from "./session.server";

export interface RequestState {
  session: AppSession;
  logger: LoggerClient;
  /** Memoised per request so parallel loaders share one verify round trip. */
  auth?: Promise<import("./auth-state.server").AuthState>;
  /** Charts a loader wants drawn as SVG into this page (server render only). */
  charts?: Map<string, import("~/ui/dashboard/serverCharts").ChartSource>;
}

export const requestState = createContext<RequestState>();

export function stateOf(context: Readonly<RouterContextProvider>): RequestState {
  return context.get(requestState);
}

/**
 * The answer of a loader whose reads may be kept ones (readFreshRpc, readFresh, readRpc): when the
 * logger did not answer them, the page says 503 and the shell says that what it shows is what was
 * known, and since when (`loggerAway`, read by AppShell) — the root loader runs beside this one and
 * may not have met the outage itself (a logger answering from memory while its store is away).
 */
export function keptData<T extends object>(context: Readonly<RouterContextProvider>, value: T) {
  const away = stateOf(context).logger.outage;
  return data({ ...value, loggerAway: away }, { status: away ? 503 : 200 });
}

/** The request's state if the session middleware got to run (not before it, nor for a failure in it). */
export function stateIfAny(context: Readonly<RouterContextProvider>): RequestState | undefined {
  try {
    return context.get(requestState);
  } catch {
    return undefined;
  }
}

/**
 * Opens the cookie session and a logger client bound to its tokens, and after the handler ran
 * writes the cookie back if anything in the session changed (refreshed tokens, flash toasts,
 * sign-in) — so no loader or action has to commit the session itself.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const storage = sessionStorageFor(request);
  const session = await openSession(storage, request.headers.get("Cookie"));
  const before = JSON.stringify(session.data);
  // Only requests that change nothing read through the cache; any other one may have changed
  // what the cached answers say, so they are all dropped once it is done.
  const reading = request.method === "GET" || request.method === "HEAD";
  // A page load waits for the logger at most its deadline (issue 26 §2); a write gets the full timeout.
  const logger = loggerClientFor(session, { cache: reading, clientAddress: clientAddressOf(request), deadlineMs: reading ? env.loggerPageDeadlineMs : 0 });
  context.set(requestState, { session, logger });
  let response: Response;
  try {
    response = await next();
  } finally {
    if (!reading) forgetCachedAnswers();
  }
  if (JSON.stringify(session.data) !== before) {
    const cookie = await storage.commitSession(session);
    try {
      response.headers.append("Set-Cookie", cookie);
    } catch {
      const copy = new Response(response.body, response);
      copy.headers.append("Set-Cookie", cookie);
      return copy;
    }
  }
  return response;
};

/**
 * The browser's address as the console's server saw it (server/request.ts sets this header and
 * drops any a client sent; behind TRUST_PROXY it is the proxy's X-Forwarded-For). `npm run dev`
 * has no such server: the header is then whatever the browser sent, if anything — dev only.
 */
export function clientAddressOf(request: Request): string | null {
  return request.headers.get("x-loggia-client-address") || null;
}

/** A logger client bound to the tokens of this cookie session (also used by the VNC proxy's upgrade check). */
export function loggerClientFor(session: AppSession, options: { cache?: boolean; clientAddress?: string | null; deadlineMs?: number } = {}): LoggerClient {
  return new LoggerClient(
    { baseUrl: env.loggerUrl, clientId: env.clientId, clientSecret: env.clientSecret, timeoutMs: env.loggerTimeoutMs },
    {
      get: () => ({ accessToken: session.get("accessToken"), refreshToken: session.get("refreshToken") }),
      set: (pair) => {
        if (pair) {
          session.set("accessToken", pair.access_token);
          session.set("refreshToken", pair.refresh_token);
        } else {
          session.unset("accessToken");
          session.unset("refreshToken");
        }
      },
    },
    // The session id read now: a sign-in later in this request gives the session a new one,
    // and tokens refreshed then are the new sign-in's anyway.
    { ...options, sessionId: session.get("sid") },
  );
}
