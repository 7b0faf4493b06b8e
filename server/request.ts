// Express ↔ Fetch for the React Router handler, as @react-router/express does, plus what that
// adapter cannot do: the request's URL is the origin browsers use (PUBLIC_ORIGIN, or a trusted
// proxy's X-Forwarded-*), every request first passes the app's gate (origin check, methods, body
// types and Content-Length; app/services/requestGate.server.ts), and the body React Router reads
// is counted as it streams in — past its route's limit the client gets 413 and no more is kept.
import type { IncomingHttpHeaders } from "node:http";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
// A lingering close (nginx's): a 413 answered before the body was read still reaches a client that
// is sending on, instead of being lost to the connection's reset.
import { lingerOnClose } from "./linger.ts";

/** What the app's entry.server exports as `requestGate` (app/services/requestGate.server.ts). */
export interface RequestGate {
  refusal(facts: { method: string; path: string; headers: Headers; encrypted?: boolean }): Refusal | null;
  requestOrigin(facts: { headers: Headers; encrypted?: boolean }): string | null;
  originAllowed(headers: Headers, expected: string | null): boolean;
  bodyLimit(path: string): number;
  clientAddress(headers: Headers, peer: string | undefined): string | null;
  trustProxy: boolean;
}
export interface Refusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

type Handler = (request: Request) => Promise<Response>;

/** After a refusal for size, this much more of the body is read and thrown away (a clean 413 for the client), then the connection is cut. */
const DRAIN_MAX = 8 * 1024 * 1024;
/** Header the app reads the client's address from; never taken from the client itself. */
export const CLIENT_ADDRESS_HEADER = "x-loggia-client-address";
const FORWARDED = ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-for", "x-forwarded-port", "forwarded"];

function fetchHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(raw)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

const isClosed = (res: ExpressResponse) => res.destroyed || res.writableEnded;

function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A NUL in the address (`%00`, in the path or the query) is no name, id or filter of anything: no
 * form sends one, and the logger refuses it in every parameter. The translated 400 page here,
 * once for every screen, rather than a screen passing it on and failing with the logger's 400.
 */
const holdsNul = (url: string) => /%00/i.test(url);

/** A browser navigation (a page to show) rather than a script's fetch or a client data request. */
function wantsPage(req: ExpressRequest) {
  return /\btext\/html\b/.test(req.headers.accept ?? "") && !req.path.endsWith(".data");
}

export function createConsoleHandler({ handle, gate }: { handle: Handler; gate: RequestGate }) {
  /** A refusal: for a browser the console's translated error page, for anything else plain text. */
  async function refuse(req: ExpressRequest, res: ExpressResponse, refusal: Refusal, origin: string | null) {
    if (isClosed(res) || res.headersSent) return;
    for (const [key, value] of Object.entries(refusal.headers ?? {})) res.setHeader(key, value);
    if (refusal.status === 413) {
      res.setHeader("Connection", "close");
      lingerOnClose(req);
    }
    if (origin && wantsPage(req) && req.method !== "HEAD") {
      // The error page is rendered for this visitor (language, session) by the app's own route.
      const headers = new Headers();
      for (const name of ["cookie", "accept", "accept-language", "user-agent"]) if (req.headers[name]) headers.set(name, String(req.headers[name]));
      const page = await handle(new Request(`${origin}/refused?${new URLSearchParams({ status: String(refusal.status), reason: refusal.reason })}`, { headers }));
      await send(res, new Response(page.body, { status: refusal.status, headers: page.headers }));
      return;
    }
    res.status(refusal.status).type("text/plain").send(`${refusal.status} ${refusal.reason}\n`);
  }

  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const raw = fetchHeaders(req.headers);
      const encrypted = "encrypted" in req.socket && Boolean(req.socket.encrypted);
      const origin = gate.requestOrigin({ headers: raw, encrypted });
      if (!origin) return void res.status(400).type("text/plain").send("400 bad-request\n");
      // A path whose percent-encoding does not decode (`/%ff`) names no page: the translated 400
      // page here, rather than a router's URIError (a stack trace in the log per request).
      if (!decodablePath(req.path) || holdsNul(req.originalUrl)) return void (await refuse(req, res, { status: 400, reason: "bad-request" }, origin));
      const refusal = gate.refusal({ method: req.method, path: req.path, headers: raw, encrypted });
      if (refusal) return void (await refuse(req, res, refusal, origin));

      // What the app sees: forwarded headers only from a trusted proxy, and always the scheme
      // of the origin it is reached at (Secure cookies), plus the client's address.
      const headers = new Headers(raw);
      if (!gate.trustProxy) for (const name of FORWARDED) headers.delete(name);
      headers.set("x-forwarded-proto", new URL(origin).protocol.slice(0, -1));
      headers.delete(CLIENT_ADDRESS_HEADER);
      const client = gate.clientAddress(raw, req.socket.remoteAddress);
      if (client) headers.set(CLIENT_ADDRESS_HEADER, client);

      const controller = new AbortController();
      let finished = false;
      res.on("finish", () => (finished = true));
      res.on("close", () => finished || controller.abort());
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
      if (req.method !== "GET" && req.method !== "HEAD") {
        const body = countedBody(req, gate.bodyLimit(req.path), () => {
          void refuse(req, res, { status: 413, reason: "too-large" }, origin).catch(() => res.destroy());
        });
        // Answered without reading all of it (a 404, a refusal): the rest is dropped, not buffered.
        res.on("finish", body.abandon);
        init.body = body.stream;
        init.duplex = "half";
      }
      const response = await handle(new Request(`${origin}${req.originalUrl}`, init));
      // A 413 may have been answered meanwhile: then this answer is not wanted.
      if (res.headersSent || isClosed(res)) return void (await response.body?.cancel());
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

async function send(res: ExpressResponse, response: Response) {
  if (isClosed(res)) return void (await response.body?.cancel());
  res.statusMessage = response.statusText;
  res.status(response.status);
  // Fetch headers join repeated values except Set-Cookie: one setHeader each, so a header the
  // server set already (X-Content-Type-Options) is replaced rather than repeated.
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!isClosed(res)) throw error;
  }
}

/**
 * The request body as a web stream that counts: past `limit` bytes the stream fails (the action's
 * formData() with it), `tooLarge` answers 413, and the rest of the body is read and dropped (up to
 * DRAIN_MAX, then the connection is cut). Reading pauses while React Router has not asked for
 * more, so a body is never held in memory beyond the stream's small buffer.
 */
export function countedBody(req: NodeJS.ReadableStream & { destroy(): void }, limit: number, tooLarge: () => void): { stream: ReadableStream<Uint8Array>; abandon(): void } {
  let total = 0;
  let state: "open" | "failed" | "dropping" | "done" = "open";
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          total += chunk.length;
          if (state !== "open") {
            // Dropped bytes are bounded too: a client that keeps sending is cut off.
            if (total > limit + DRAIN_MAX) req.destroy();
            return;
          }
          if (total > limit) {
            state = "failed";
            controller.error(new RangeError(`Request body larger than ${limit} bytes`));
            tooLarge();
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on("end", () => {
          if (state !== "open") return;
          state = "done";
          controller.close();
        });
        req.on("error", (error) => {
          if (state !== "open") return;
          state = "failed";
          controller.error(error);
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        abandon();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  function abandon() {
    if (state === "open") state = "dropping";
    req.resume();
  }
  return { stream, abandon };
}
