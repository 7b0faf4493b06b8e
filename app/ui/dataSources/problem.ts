import type { TFunction } from "i18next";

// A logger's data-source problem (a connection error, a refused browse or save) in the user's
// language: the logger sends a stable code with its arguments beside its English text (decision
// 0010, "Connection problems"); a code this console does not know, or a logger that sends none,
// falls back to the logger's own words.

export type Problem = { Code: string; Args: Record<string, string | number> };

export function problemMessage(t: TFunction, problem: Problem | null | undefined, fallback: string): string {
  if (!problem || !/^\w+$/.test(problem.Code)) return fallback;
  return t(`dataSources.problem.${problem.Code}`, { ...problem.Args, defaultValue: fallback });
}
