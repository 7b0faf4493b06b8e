import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { RouterContextProvider } from "react-router";
import { passwordChangeSchema } from "~/schemas/password";
import { forgetAuth } from "./auth-state.server";
import { stateOf } from "./context.server";
import { getInstance } from "./i18n.server";
import { LoggerError } from "./logger/errors";
import { emptyAnswer } from "./logger/schemas";

const HIDDEN = ["currentPassword", "newPassword", "confirmPassword"];

/** Validates and applies a password change of the signed-in user; null on success. */
export async function changeOwnPassword(formData: FormData, context: Readonly<RouterContextProvider>): Promise<SubmissionResult<string[]> | null> {
  const submission = parseWithZod(formData, { schema: passwordChangeSchema });
  if (submission.status !== "success") return submission.reply({ hideFields: HIDDEN });
  const { logger, session } = stateOf(context);
  try {
    await logger.rpc(
      "GI.system/UserManagementAPI.ChangePassword",
      { OldPassword: submission.value.currentPassword, NewPassword: submission.value.newPassword },
      emptyAnswer,
    );
  } catch (error) {
    if (error instanceof LoggerError && error.status === 429) {
      // Too many wrong current passwords: the logger's throttle says how long to wait.
      const text = waitText(context, error.retryAfterSec ?? 60);
      return submission.reply({ fieldErrors: { currentPassword: [text] }, hideFields: HIDDEN });
    }
    if (error instanceof LoggerError && error.status < 500) {
      // The logger's own words (spec §8), e.g. a wrong current password or its policy.
      return submission.reply({ formErrors: [error.message], hideFields: HIDDEN });
    }
    throw error;
  }
  session.set("mustChangePassword", false);
  forgetAuth(context);
  return null;
}

/** "Too many failed attempts; try again in N seconds/minutes", in the request's language. */
export function waitText(context: Readonly<RouterContextProvider>, seconds: number): string {
  const { t } = getInstance(context);
  return seconds >= 120 ? t("validation.throttledMinutes", { count: Math.ceil(seconds / 60) }) : t("validation.throttledSeconds", { count: seconds });
}
