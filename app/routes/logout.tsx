import { redirect } from "react-router";
import { signOut } from "~/services/auth.server";
import type { Route } from "./+types/logout";

// Spec §2: /logout clears the tokens and goes to /signin. The menu posts here; a typed URL
// (GET) works too, since signing out only ever removes access.
export async function loader({ context }: Route.LoaderArgs) {
  await signOut(context);
  return redirect("/signin");
}

export async function action({ context }: Route.ActionArgs) {
  await signOut(context);
  return redirect("/signin");
}
