import { Form, redirect } from "react-router";
import { getAuth } from "~/services/auth-state.server";
import { signOut } from "~/services/auth.server";
import { useT } from "~/ui/useT";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/logout";

export const handle = { bare: true };

// Spec §2: /logout clears the tokens and goes to /signin — by POST only (the menus post here),
// like every change: a GET (a typed URL, a link or an image on another site) must not sign
// anyone out, so it asks instead.
export async function loader({ context }: Route.LoaderArgs) {
  const auth = await getAuth(context);
  if (!auth.signedIn) throw redirect(auth.loginRequired ? "/signin" : "/");
  return { username: auth.username };
}

export async function action({ context }: Route.ActionArgs) {
  await signOut(context);
  return redirect("/signin");
}

export default function Logout({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 text-center shadow-xl dark:bg-slate-800">
        <h1 className="mb-2 text-xl font-semibold">{t("logout.title")}</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{t("logout.question", { username: loaderData.username ?? "" })}</p>
        <Form method="post" className="flex justify-center gap-3">
          <a href="/" className="rounded-md border border-slate-300 px-4 py-2 dark:border-slate-600">
            {t("logout.stay")}
          </a>
          <button type="submit" className="rounded-md bg-brand px-4 py-2 font-semibold text-on-brand hover:bg-brand-hover hover:text-on-brand-hover" data-testid="logout-confirm">
            {t("logout.submit")}
          </button>
        </Form>
      </div>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "logout.title");
}
