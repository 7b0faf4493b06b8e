import { data } from "react-router";
import { stateOf } from "~/services/context.server";
import { filesQuery } from "~/services/files.server";
import { requireFeature } from "~/services/guards.server";
import { isRefusal } from "~/services/submission.server";
import type { Route } from "./+types/fileBrowserRaw";

const INLINE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;

/** A file of the data root streamed through: a download, or inline for the image preview. */
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "fileBrowser");
  const path = args.url.searchParams.get("path") ?? "";
  let res: Response;
  try {
    res = await stateOf(args.context).logger.stream(`/files/download?${filesQuery(path)}`, "GET", undefined, args.request.signal);
  } catch (error) {
    if (isRefusal(error)) throw data({ reason: error.status === 404 ? "not-found" : "bad-request" }, { status: error.status === 404 ? 404 : 400 });
    throw error;
  }
  const type = res.headers.get("Content-Type") ?? "application/octet-stream";
  const inline = args.url.searchParams.get("download") !== "1" && INLINE.test(type);
  const headers = new Headers({
    "Content-Type": inline ? type : type.startsWith("text/") ? type : "application/octet-stream",
    "X-Content-Type-Options": "nosniff",
    // An uploaded SVG may carry script; opened directly it must not run it.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    "Cache-Control": "private, no-store",
  });
  if (!inline) headers.set("Content-Disposition", res.headers.get("Content-Disposition") ?? "attachment");
  const length = res.headers.get("Content-Length");
  if (length) headers.set("Content-Length", length);
  return new Response(res.body, { headers });
}
