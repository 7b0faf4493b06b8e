import { useT } from "~/ui/useT";
import { data, redirect } from "react-router";
import { applyProfile } from "~/services/auth.server";
import { landingPath, redirectWithToast, requireSession } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { changeOwnPassword } from "~/services/password.server";
import { safePath } from "~/services/redirects";
import { PasswordForm } from "~/ui/PasswordForm";
import type { Route } from "./+types/changePassword";

export const handle = { bare: true };

// The forced password change of a flagged user (e.g. admin with its generated first password).
export async function loader(args: Route.LoaderArgs) {
  const auth = await requireSession(args, { allowPasswordChange: true });
  if (!auth.loginRequired) throw redirect("/");
  if (!auth.mustChangePassword) throw redirect("/settings");
  return { username: auth.username };
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireSession(args, { allowPasswordChange: true });
  if (!auth.loginRequired) throw data(null, { status: 404 });
  const formData = await args.request.formData();
  const failed = await changeOwnPassword(formData, args.context);
  if (failed) return data(failed, { status: 400 });
  // Until now the logger answered nothing else to this user: their profile (language) comes now.
  if (auth.userId !== null) await applyProfile(args.context, auth.userId);
  const { t } = getInstance(args.context);
  const target = await landingPath(args.context, safePath(args.url.searchParams.get("redirect_uri")));
  return redirectWithToast(args.context, target, { type: "success", text: t("password.changed") });
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-xl dark:bg-slate-800">
        <h1 className="mb-2 text-xl font-semibold">{t("password.forcedTitle")}</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{t("password.forcedIntro", { username: loaderData.username ?? "" })}</p>
        <PasswordForm lastResult={actionData} submitLabel={t("password.submit")} />
        <form method="post" action="/logout" className="mt-4 text-center">
          <button type="submit" className="text-sm text-slate-500 underline">
            {t("nav.logout")}
          </button>
        </form>
      </div>
    </div>
  );
}
