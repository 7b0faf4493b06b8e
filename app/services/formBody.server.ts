import { data, type MiddlewareFunction } from "react-router";

/** The console's body limit (requestGate.server.ts): every form fits many times over; uploads get more. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * A body that says it is a form but is none (broken multipart framing, a bad boundary) is the
 * sender's mistake: 400 here, before any action's formData() throws it as a 500. The request
 * gate (requestGate.server.ts) has let only form types through and bounded the size, so reading
 * a copy costs at most that much once more.
 */
export const formBodyMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  // A larger declared size is an upload's: its route refuses or reads it (the gate counts it).
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (request.method === "POST" && request.body && !(declared > DEFAULT_BODY_LIMIT)) {
    try {
      await request.clone().formData();
    } catch {
      throw data({ reason: "bad-request" }, { status: 400 });
    }
  }
  return next();
};
