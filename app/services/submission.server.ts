import type { Submission, SubmissionResult } from "@conform-to/react";
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
  return { result, status: error.status >= 400 && error.status < 500 ? error.status : 400 };
}

export function isRefusal(error: unknown): error is LoggerError {
  return error instanceof LoggerError && error.status >= 400 && error.status < 500 && error.status !== 401;
}

/** Runs a logger call; a refusal comes back as the error (to show), anything else is thrown. */
export async function refusalOf(call: () => Promise<unknown>): Promise<LoggerError | null> {
  try {
    await call();
    return null;
  } catch (error) {
    if (isRefusal(error)) return error;
    throw error;
  }
}
