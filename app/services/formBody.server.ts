import { data, type MiddlewareFunction } from "react-router";
import { bodyLimit } from "./requestGate.server";

/**
 * A body that says it is a form but is none (broken multipart framing, a bad boundary) is the
 * sender's mistake: 400 here, before any action's formData() throws it as a 500. The request
 * gate (requestGate.server.ts) has let only form types through and bounded the size, so reading
 * a copy costs at most that much once more.
 */
export const formBodyMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  // A declared size over the limit is left to the upload route that refuses it in its own words.
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (request.method === "POST" && request.body && !(declared > bodyLimit(new URL(request.url).pathname))) {
    try {
      await request.clone().formData();
    } catch {
      throw data({ reason: "bad-request" }, { status: 400 });
    }
  }
  return next();
};
