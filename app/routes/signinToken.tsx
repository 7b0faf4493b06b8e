import { data, redirect } from "react-router";
import { z } from "zod";
import { forgetAuth } from "~/services/auth-state.server";
import { stateOf } from "~/services/context.server";
import { landingPath } from "~/services/guards.server";
import { MAX_TARGET_LENGTH, safePath, withReturnPath } from "~/services/redirects";
import { beginSession } from "~/services/session.server";
import type { Route } from "./+types/signinToken";

// Spec §4: an access token in the URL hash at startup is stored as the access token. The hash
// never reaches a server, so the root component posts it here (JavaScript only, by nature).
// redirect_uri: where the page that found the token was headed (its own path, or the sign-in
// page's remembered one), decided by the one redirect function like every other target.
const schema = z.object({ access_token: z.string().min(8).max(4096), redirect_uri: z.string().max(MAX_TARGET_LENGTH).optional() });

export async function loader() {
  throw data(null, { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data({ reason: "bad-request" }, { status: 400 });
  const { session, logger } = stateOf(context);
  beginSession(session); // a sign-in: a new session lifetime and id
  session.set("accessToken", parsed.data.access_token);
  session.unset("refreshToken");
  forgetAuth(context);
  const verified = await logger.verify();
  if (!verified) {
    session.unset("accessToken");
    return redirect("/signin");
  }
  session.set("userId", verified.user_id);
  session.set("mustChangePassword", verified.must_change_password);
  if (verified.username) session.set("username", verified.username);
  const target = safePath(parsed.data.redirect_uri);
  return redirect(verified.must_change_password ? withReturnPath("/changePassword", target) : await landingPath(context, target));
}
