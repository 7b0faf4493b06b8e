import type { Submission, SubmissionResult } from "@conform-to/react";
import type { TFunction } from "i18next";
import { isLoggerAway } from "./logger/client.server";
import { LoggerError } from "./logger/errors";

/**
 * A refusal from the logger as a form reply: its own words (spec §8) next to the field they are
 * about when the text names one, else above the form; a 409 gets the screen's conflict text.
 */
export function loggerReply(
  submission: Submission<unknown, string[]>,
  error: LoggerError,
  opts: { conflict: string; fields?: Record<string, RegExp>; hideFields?: string[] },
): { result: SubmissionResult<string[]>; status: number } {
  if (error.status === 409) {
    return { result: submission.reply({ formErrors: [opts.conflict], hideFields: opts.hideFields }), status: 409 };
  }
  // Matched on the logger's own words (English): the message shown may be translated (refusal codes).
  const field = Object.entries(opts.fields ?? {}).find(([, pattern]) => pattern.test(error.description))?.[0];
  const result = field
    ? submission.reply({ fieldErrors: { [field]: [error.message] }, hideFields: opts.hideFields })
    : submission.reply({ formErrors: [error.message], hideFields: opts.hideFields });
  return { result, status: replyStatus(error) };
}

/** The status a form's reply carries for a failed logger call: the refusal's own, 503 for no answer. */
export function replyStatus(error: LoggerError): number {
  return (error.status >= 400 && error.status < 500) || error.status === 503 ? error.status : 400;
}

export function isRefusal(error: unknown): error is LoggerError {
  return error instanceof LoggerError && error.status >= 400 && error.status < 500 && error.status !== 401;
}

/**
 * How an action's logger call failed, to be said where the user acted: the logger's refusal, or no
 * answer at all (the logger away, or its store) — a fault the user recovers from, so the form
 * stays as typed with the reason beside it instead of an error page. Anything else is thrown.
 */
export function failureOf(error: unknown, t: TFunction): LoggerError {
  if (isRefusal(error)) return error;
  if (isLoggerAway(error)) return new LoggerError(503, "the logger is not answering", undefined, undefined, undefined, undefined, t("errors.loggerAwayWrite"));
  throw error;
}

/** failureOf for the forms that say every answer below 500 next to them (a 401 included). */
export function anyFailureOf(error: unknown, t: TFunction): LoggerError {
  if (error instanceof LoggerError && error.status < 500) return error;
  return failureOf(error, t);
}

/** Runs an action's logger call; a refusal or no answer comes back as the error (to show, failureOf), anything else is thrown. */
export async function refusalOf(call: () => Promise<unknown>, t: TFunction): Promise<LoggerError | null> {
  const answer = await answerOf(call, t);
  return answer instanceof LoggerError ? answer : null;
}

/**
 * An action's read before its write (the current state a change is checked against): the answer,
 * or how it failed (failureOf), which the action says beside its form like a failed write.
 */
export async function answerOf<T>(call: () => Promise<T>, t: TFunction): Promise<T | LoggerError> {
  try {
    return await call();
  } catch (error) {
    return failureOf(error, t);
  }
}
