import { data } from "react-router";
import { stateOf } from "~/services/context.server";
import { readId, readIntent } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { acknowledgeAnswer } from "~/services/logger/schemas";
import { safePath } from "~/services/redirects";
import { failureOf } from "~/services/submission.server";
import type { Route } from "./+types/alarmAck";

// Acknowledges one alarm from a dashboard's alarm list (issue 15 §4): a plain form post, with
// and without JavaScript, back to the page it came from with a toast. The same gate as the
// Alarming screen (UseRulesNotifications): without it the answer is 403.

export async function loader() {
  throw data(null, { status: 404 });
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "alarming");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  readIntent(formData, ["acknowledge"] as const);
  const id = readId(formData.get("id"));
  const back = safePath(String(formData.get("redirectTo") ?? "")) ?? "/dashboard";
  try {
    const { Acknowledged } = await logger.rpc("AlarmAPI.Acknowledge", { IDs: [id], Comment: "" }, acknowledgeAnswer);
    if (!Acknowledged.includes(id)) return redirectWithToast(args.context, back, { type: "error", text: t("operator.alarms.alreadyAcknowledged") });
  } catch (caught) {
    const error = failureOf(caught, t);
    return redirectWithToast(args.context, back, { type: "error", text: error.message });
  }
  return redirectWithToast(args.context, back, { type: "success", text: t("operator.alarms.acknowledged") });
}
