import { data } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { requireAnyFeature } from "~/services/guards.server";
import type { Route } from "./+types/live";

// Relays the logger's live push (Server-Sent Events) to the browser, so tokens stay on the
// server. EventSource reconnects by itself when the logger or the network was away.
const ids = z.array(z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/)).min(1).max(256);

export async function loader(args: Route.LoaderArgs) {
  await requireAnyFeature(args, ["monitor", "variableOverview", "structView", "devices", "dashboard"]);
  const parsed = ids.safeParse((args.url.searchParams.get("variables") ?? "").split(",").filter(Boolean));
  if (!parsed.success) throw data({ reason: "bad-request" }, { status: 400 });
  const upstream = await stateOf(args.context).logger.stream(`/online/stream?variables=${parsed.data.map(encodeURIComponent).join(",")}`, "GET", undefined, args.request.signal);
  return new Response(upstream.body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
  });
}
