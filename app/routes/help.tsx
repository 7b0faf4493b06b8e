import { data, redirectDocument } from "react-router";
import { loadConstants } from "~/services/constants.server";
import { requireFeature } from "~/services/guards.server";
import type { Route } from "./+types/help";

// Spec §2: Help leads to the constants file's help URL; absent on controllers.
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "help");
  const url = loadConstants().urls.help;
  if (!url) throw data(null, { status: 404 });
  // A document redirect: the help page is not a console route (and may be another site).
  return redirectDocument(url);
}
