import { redirect } from "react-router";
import { requireSession } from "~/services/guards.server";
import { startPagePath } from "~/services/redirects";
import type { Route } from "./+types/home";

// Spec §2: "/" goes to the DefaultStartPage of the global settings.
export async function loader(args: Route.LoaderArgs) {
  const auth = await requireSession(args);
  return redirect(startPagePath(auth.settings?.DefaultStartPage, auth));
}
