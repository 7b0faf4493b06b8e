import { z } from "zod";
import type { ChartAnnotation } from "~/ui/dashboard/annotations";
import type { AuthState } from "./auth-state.server";
import type { LoggerClient } from "./logger/client.server";
import { emptyAnswer, idAnswer } from "./logger/schemas";

// Operator annotations (AnnotationAPI, docs/logger-api.md "Annotations"). Reads for charts are
// bounded and cached like the chart events; a refusal or an unreachable logger leaves the charts
// without notes rather than failing them.

export const annotation = z.object({
  ID: z.number(),
  Start: z.number(),
  End: z.number(),
  Text: z.string(),
  Tags: z.array(z.string()).default([]),
  Variables: z.array(z.string()).default([]),
  Author: z.string(),
  Created: z.string(),
  Updated: z.string().optional(),
  Version: z.number().optional(),
});
export type Annotation = z.infer<typeof annotation>;
const listAnswer = z.object({ Annotations: z.array(annotation), Total: z.number().optional() });

/** The permissions that let a caller add notes, and remove anyone's (the logger decides too). */
export const ADD_PERMISSION = "UseMetaData";
const MODERATE_PERMISSION = "ManageGlobalSettings";
/** Charts ask for a minute-aligned range, so the same page's requests share one cached answer. */
const ALIGN_MS = 60_000;

export function mayAddAnnotations(auth: AuthState): boolean {
  return !auth.loginRequired || auth.permissions.includes(ADD_PERMISSION);
}

/** As a chart draws it, with what the viewer may do with it. */
export function chartAnnotation(a: Annotation, auth: AuthState): ChartAnnotation {
  const mine = auth.loginRequired ? a.Author === auth.username : a.Author === "anonymous";
  return {
    id: a.ID,
    start: a.Start,
    end: a.End,
    text: a.Text,
    tags: a.Tags,
    author: a.Author,
    variables: a.Variables,
    canEdit: mine && mayAddAnnotations(auth),
    canRemove: mine || !auth.loginRequired || auth.permissions.includes(MODERATE_PERMISSION),
  };
}

/** Notes touching the range (all variables; charts pick theirs), or [] when they cannot be read. */
export async function loadAnnotations(logger: LoggerClient, auth: AuthState, range: { from: number; to: number }): Promise<ChartAnnotation[]> {
  try {
    const Start = Math.max(0, Math.floor(range.from / ALIGN_MS) * ALIGN_MS);
    const End = Math.ceil(range.to / ALIGN_MS) * ALIGN_MS;
    const { Annotations } = await logger.readRpc("AnnotationAPI.List", { Start, End }, listAnswer);
    return Annotations.filter((a) => a.Start <= range.to && a.End >= range.from).map((a) => chartAnnotation(a, auth));
  } catch {
    return [];
  }
}

/** The annotations screen's list: every note in the range, refusals and failures thrown. */
/** `keptAs`: the screen's own read, kept for an outage under that name (its range moves with the clock). */
export async function listAnnotations(logger: LoggerClient, range: { from: number; to: number }, variables?: string[], keptAs?: string) {
  const params = { Start: Math.max(0, Math.round(range.from)), End: Math.round(range.to), ...(variables?.length ? { Variables: variables } : {}) };
  return keptAs === undefined ? logger.rpc("AnnotationAPI.List", params, listAnswer) : logger.readFreshRpc("AnnotationAPI.List", params, listAnswer, { keptAs });
}

export type AnnotationInput = { Start: number; End: number; Text: string; Tags: string[]; Variables: string[] };

export const addAnnotation = (logger: LoggerClient, a: AnnotationInput) => logger.rpc("AnnotationAPI.Add", { Annotation: a }, idAnswer);
export const setAnnotation = (logger: LoggerClient, a: AnnotationInput & { ID: number; Version?: number }) => logger.rpc("AnnotationAPI.Set", { Annotation: a }, z.object({ Version: z.number() }));
export const removeAnnotation = (logger: LoggerClient, id: number) => logger.rpc("AnnotationAPI.Remove", { ID: id }, emptyAnswer);

/**
 * Comment lines of a CSV export (README, "CSV metadata lines"): one per note in the range, about
 * none of the variables in particular or about one of those exported, oldest first.
 */
export function annotationComments(notes: readonly Annotation[], variableIds: readonly string[]): string[] {
  const ids = new Set(variableIds);
  return notes
    .filter((a) => a.Variables.length === 0 || a.Variables.some((v) => ids.has(v)))
    .map((a) => {
      const when = a.End > a.Start ? `${new Date(a.Start).toISOString()} – ${new Date(a.End).toISOString()}` : new Date(a.Start).toISOString();
      const tags = a.Tags.length ? ` [${a.Tags.join(", ")}]` : "";
      return `Annotation ${when} (${a.Author}): ${a.Text.replace(/\s+/g, " ")}${tags}`;
    });
}

/** The notes of an export's range about its variables as comment lines; none when they cannot be read. */
export async function exportNotes(logger: LoggerClient, range: { from: number; to: number }, vars: { Id: string }[]): Promise<string[]> {
  try {
    const { Annotations } = await listAnnotations(logger, range);
    return annotationComments(Annotations, vars.map((v) => v.Id));
  } catch {
    return [];
  }
}
