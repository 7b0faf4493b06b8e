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

// Never rendered (the loader redirects or throws), but with a component this is a page route:
// its 404 on a controller is the console's 404 page, not a resource route's JSON.
export default function Help() {
  return null;
}
