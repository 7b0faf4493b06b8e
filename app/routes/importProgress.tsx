import { stateOf } from "~/services/context.server";
import { requireFeature, requirePermission } from "~/services/guards.server";
import { importProgress } from "~/services/import.server";
import { isRefusal } from "~/services/submission.server";
import type { Route } from "./+types/importProgress";

/** How far an import session's commit has come, for the Import screen's progress bar (JSON). */
export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "import");
  requirePermission(auth, "ManageProject");
  const session = args.url.searchParams.get("session") ?? "";
  if (!/^[A-Za-z0-9-]{1,64}$/.test(session)) return Response.json({ error: "bad-request" }, { status: 400 });
  try {
    return Response.json(await importProgress(stateOf(args.context).logger, session), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return Response.json({ error: error.message }, { status: error.status });
  }
}
