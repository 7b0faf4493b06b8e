import type { ServerResponse } from "node:http";

function bodyLeftUnread(res: ServerResponse): boolean {
  const req = res.req as ServerResponse["req"] | undefined;
  if (!req || req.complete) return false;
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    // Answered before the request's body was read (413, or a refusal that needed none of it):
    // the connection closes after this answer rather than Node reading and dropping the rest.
    ...(bodyLeftUnread(res) ? { Connection: "close" } : {}),
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
): void {
  sendJson(res, status, { ...extra, ReturnState: { Value: value, Description: description } }, headers);
}
