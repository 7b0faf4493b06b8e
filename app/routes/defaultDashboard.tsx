import { redirect } from "react-router";
import type { Route } from "./+types/defaultDashboard";

// Spec §2: /defaultDashboard goes to /dashboard; the query (e.g. ?kiosk) travels along.
export async function loader({ url }: Route.LoaderArgs) {
  return redirect(`/dashboard${url.search}`);
}
