import { useT } from "~/ui/useT";
import { DefaultLogo } from "~/ui/DefaultLogo";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { useRootData } from "~/ui/rootData";
import { getAuth } from "~/services/auth-state.server";
import { signIn } from "~/services/auth.server";
import { stateOf } from "~/services/context.server";
import { flashToast, landingPath } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { InvalidCredentials, SignInThrottled } from "~/services/logger/client.server";
import { waitText } from "~/services/password.server";
import { MAX_PASSWORD_LENGTH } from "~/schemas/password";
import { MAX_TARGET_LENGTH, safePath, startPagePath, withReturnPath } from "~/services/redirects";
import { Toast } from "~/ui/Toasts";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/signin";

export const handle = { bare: true };

// Spec §5: no client-side validation; the server only bounds the sizes (a password longer than
// MAX_PASSWORD_LENGTH is answered with a message; far beyond it the post is malformed).
const signinForm = z.object({
  username: z.string().max(256).default("").transform((v) => v.trim()),
  password: z.string().max(64 * 1024).default(""),
  redirect_uri: z.string().max(MAX_TARGET_LENGTH).optional(),
});

export async function loader({ url, context }: Route.LoaderArgs) {
  const auth = await getAuth(context);
  if (!auth.loginRequired || auth.signedIn) {
    // Spec §2: signed in already (e.g. back on this page after signing in) → the remembered
    // path, which this page's URL carries, else the DefaultStartPage.
    const remembered = safePath(url.searchParams.get("redirect_uri")) ?? safePath(stateOf(context).session.get("redirectTo"));
    if (auth.mustChangePassword) throw redirect(withReturnPath("/changePassword", remembered));
    throw redirect(remembered ?? startPagePath(auth.settings?.DefaultStartPage, auth));
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  // The strategy reads the body itself, so this reads a clone.
  const parsed = signinForm.safeParse(Object.fromEntries(await request.clone().formData()));
  if (!parsed.success) throw data({ reason: "bad-request" }, { status: 400 });
  const { username, password } = parsed.data;
  const redirectUri = safePath(parsed.data.redirect_uri);
  const nonce = crypto.randomUUID();
  if (!password) {
    return data({ username, fieldErrors: { password: t("signin.passwordRequired") }, error: null, throttled: null, nonce }, { status: 400 });
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return data({ username, fieldErrors: { password: t("validation.passwordTooLong") }, error: null, throttled: null, nonce }, { status: 400 });
  }
  try {
    const { mustChangePassword, headers } = await signIn(request, context);
    flashToast(context, { type: "success", text: t("signin.success") });
    if (mustChangePassword) return redirect(withReturnPath("/changePassword", redirectUri ?? stateOf(context).session.get("redirectTo")), { headers });
    return redirect(await landingPath(context, redirectUri), { headers });
  } catch (error) {
    if (error instanceof InvalidCredentials) {
      return data({ username, fieldErrors: {}, error: t("signin.invalid"), throttled: null, nonce }, { status: 401 });
    }
    if (error instanceof SignInThrottled) {
      // The logger's sign-in throttle: say how long to wait, in words that stay on the page.
      return data(
        { username, fieldErrors: {}, error: null, throttled: waitText(context, error.retryAfterSec), nonce },
        { status: 429, headers: { "Retry-After": String(error.retryAfterSec) } },
      );
    }
    throw error;
  }
}

export default function SignIn({ actionData }: Route.ComponentProps) {
  const t = useT();
  const root = useRootData();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fieldErrors: { password?: string } = actionData?.fieldErrors ?? {};
  const logo = root?.theme.logo;
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-light to-white px-4 dark:from-slate-800 dark:to-slate-900">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-xl dark:bg-slate-800">
        <div className="mb-6 flex justify-center">
          {logo ? <img src={logo} alt="Loggia" className="max-h-[69px] max-w-[215px]" /> : <DefaultLogo />}
        </div>
        <h1 className="mb-1 text-center text-xl font-semibold">{t("signin.title")}</h1>
        <p className="mb-6 text-center text-sm text-slate-500 dark:text-slate-400">{t("signin.subtitle")}</p>
        {/* Spec §5: no client-side validation on the login form. */}
        {actionData?.throttled && (
          <p role="alert" data-testid="signin-throttled" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
            {actionData.throttled}
          </p>
        )}
        <Form method="post" noValidate className="flex flex-col gap-4">
          <input type="hidden" name="redirect_uri" value={params.get("redirect_uri") ?? ""} />
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("signin.username")}
            <input
              name="username"
              autoComplete="username"
              autoFocus
              defaultValue={actionData?.username ?? ""}
              className="rounded-md border border-slate-300 px-3 py-2 text-base font-normal focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/30 dark:border-slate-600 dark:bg-slate-900"
            />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("signin.password")}
            <input
              name="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={fieldErrors.password ? true : undefined}
              aria-describedby={fieldErrors.password ? "password-error" : undefined}
              className="rounded-md border border-slate-300 px-3 py-2 text-base font-normal focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/30 dark:border-slate-600 dark:bg-slate-900"
            />
            {fieldErrors.password && (
              <span id="password-error" className="text-sm font-normal text-red-700 dark:text-red-400">
                {fieldErrors.password}
              </span>
            )}
          </label>
          <button type="submit" disabled={busy} className="rounded-md bg-brand px-4 py-2 font-semibold text-on-brand hover:bg-brand-hover hover:text-on-brand-hover disabled:opacity-60">
            {busy ? t("signin.signingIn") : t("signin.submit")}
          </button>
        </Form>
      </div>
      {actionData?.error && <Toast key={actionData.nonce} toast={{ type: "error", text: actionData.error }} />}
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "signin.title");
}
