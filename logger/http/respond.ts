import type { ServerResponse } from "node:http";
import { lingerOnClose } from "./linger.ts";

function bodyLeftUnread(res: ServerResponse): boolean {
  const req = res.req as ServerResponse["req"] | undefined;
  if (!req || req.complete) return false;
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  const early = bodyLeftUnread(res);
  if (early && res.req) lingerOnClose(res.req);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    // Answered before the request's body was read (413, or a refusal that needed none of it):
    // the connection closes after this answer (lingering, see linger.ts) rather than Node
    // reading and dropping the rest of a body of any size.
    ...(early ? { Connection: "close" } : {}),
    ...headers,
  });
  res.end(text);
}

export function sendReturnState(
  res: ServerResponse,
  status: number,
  value: number,
  description: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  coded: { Code?: string; Args?: Record<string, string | number> } = {},
): void {
  // Code and Args only on a coded refusal: every other answer keeps the ReturnState it always had.
  const more = coded.Code ? { Code: coded.Code, Args: coded.Args ?? {} } : {};
  sendJson(res, status, { ...extra, ReturnState: { Value: value, Description: description, ...more } }, headers);
}
