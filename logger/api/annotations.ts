import { z } from "zod";
import type { PermissionName } from "../auth/permissions.ts";
import { conflict, forbidden, invalidParam, notFound } from "../http/errors.ts";
import type { Annotation, NewAnnotation } from "../store/annotations.ts";
import { findAnnotation, insertAnnotation, listAnnotations, removeAnnotation, updateAnnotation } from "../store/annotations.ts";
import type { Db } from "../store/db.ts";
import { method } from "./registry.ts";
import type { CallContext, Caller, Registry } from "./registry.ts";
import { hasInvisibleCharacters, INVISIBLE_NAME_MESSAGE, nameField } from "./schemas.ts";

// Operator annotations (issue 28, docs/logger-api.md "Annotations"): "changed injector 14:05".
// Who may do what:
// * read: whoever sees a chart they are drawn on — dashboards, Analytics, Export, Measurement
//   Explorer (ViewDashboards, ViewAnalytics, UseExport or UseMetaData);
// * add: UseMetaData. An annotation is metadata of the recorded data, as a measurement's keys
//   are; the seeded Operator role holds it, the Viewer role (who only looks) does not;
// * change: its author only (their words stay theirs);
// * remove: its author, or an administrator of the installation (ManageGlobalSettings), who
//   tidies up what others left.
// Every change is audited (Topic Audit).

export const READ_ANNOTATIONS: readonly PermissionName[] = ["ViewDashboards", "ViewAnalytics", "UseExport", "UseMetaData"];
export const ADD_ANNOTATIONS: PermissionName = "UseMetaData";
export const MODERATE_ANNOTATIONS: PermissionName = "ManageGlobalSettings";

/** Most annotations one List answers (a chart shows markers, not a log); `Total` says how many matched. */
export const MAX_LISTED = 500;
/** Epoch ms up to the year 9999, as the data API's times. */
const MAX_TIME = 253_402_300_799_999;

const time = z.number().int().min(0).max(MAX_TIME);
// A note may span lines; only the invisible characters that make two texts look alike are refused.
const text = z
  .string()
  .normalize("NFC")
  .trim()
  .min(1, "Text must not be empty")
  .max(2000, "Text must be at most 2000 characters")
  .refine((s) => !hasInvisibleCharacters(s.replace(/\r?\n/g, " ")), { message: INVISIBLE_NAME_MESSAGE });
const tags = z
  .array(nameField(40, { empty: "A tag must not be empty", tooLong: "A tag must be at most 40 characters" }))
  .max(10)
  .transform((list) => [...new Set(list)]);
const variables = z
  .array(z.string().min(1).max(100))
  .max(16)
  .transform((list) => [...new Set(list)]);

const fields = z.object({ Start: time, End: time.optional(), Text: text, Tags: tags.default([]), Variables: variables.default([]) });

/** The stored annotation as answered (AuthorID stays inside the logger). */
const shown = ({ AuthorID: _id, ...a }: Annotation) => a;

function checked(ctx: CallContext, a: { Start: number; End?: number; Text: string; Tags: string[]; Variables: string[] }): NewAnnotation {
  const end = a.End ?? a.Start;
  if (end < a.Start) throw invalidParam("Invalid parameter Annotation.End: Must not be before Start");
  const unknown = a.Variables.find((id) => !ctx.data.model.variables.some((v) => v.Id === id) && !ctx.data.store.variable(id));
  if (unknown) throw invalidParam(`Invalid parameter Annotation.Variables: Unknown variable ${unknown}`);
  return { Start: a.Start, End: end, Text: a.Text, Tags: a.Tags, Variables: a.Variables };
}

/** The caller wrote it: the same user (by ID; a renamed user keeps their notes), or anonymous on a logger without login. */
const isAuthor = (a: Annotation, me: Caller) => (me.userId === null ? a.AuthorID === null : a.AuthorID === me.userId);

async function requireAnnotation(db: Db, id: number): Promise<Annotation> {
  const a = await findAnnotation(db, id);
  if (!a) throw notFound(`Annotation ${id} not found`);
  return a;
}

const when = (a: { Start: number; End: number }) => (a.End > a.Start ? `${new Date(a.Start).toISOString()} – ${new Date(a.End).toISOString()}` : new Date(a.Start).toISOString());
const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

export const annotationMethods: Registry = {
  "AnnotationAPI.List": method({
    params: z
      .object({ Start: time, End: time, Variables: z.array(z.string().min(1).max(100)).max(100).optional(), Limit: z.number().int().min(1).max(MAX_LISTED).default(MAX_LISTED) })
      .refine((p) => p.End >= p.Start, { message: "End must not be before Start", path: ["End"] }),
    permission: READ_ANNOTATIONS,
    handler: async (p, ctx) => {
      const { list, total } = await listAnnotations(ctx.db, { start: p.Start, end: p.End, variables: p.Variables, limit: p.Limit });
      return { Annotations: list.map(shown), Total: total };
    },
  }),

  "AnnotationAPI.Add": method({
    params: z.object({ Annotation: fields }),
    permission: ADD_ANNOTATIONS,
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const a = checked(ctx, p.Annotation);
        const id = await insertAnnotation(q, a, { name: ctx.me.username, id: ctx.me.userId });
        await ctx.audit(`Added annotation ${id} at ${when(a)}: ${quoted(a.Text)}`, q);
        return { ID: id };
      }),
  }),

  "AnnotationAPI.Set": method({
    params: z.object({
      Annotation: z.object({ ID: z.number().int(), Version: z.number().int().optional(), Start: time.optional(), End: time.optional(), Text: text.optional(), Tags: tags.optional(), Variables: variables.optional() }),
    }),
    permission: ADD_ANNOTATIONS,
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const before = await requireAnnotation(q, p.Annotation.ID);
        if (!isAuthor(before, ctx.me)) throw forbidden(`Only ${before.Author} can change annotation ${before.ID}`).coded("annotationNotAuthor", { author: before.Author });
        const { ID, Version, ...changes } = p.Annotation;
        if (Version !== undefined && Version !== before.Version) {
          throw conflict("This annotation was changed meanwhile; reload and try again").coded("stale");
        }
        // A point moved without an End stays a point; a span keeps its length unless End is sent.
        const start = changes.Start ?? before.Start;
        const end = changes.End ?? (changes.Start !== undefined ? start + (before.End - before.Start) : before.End);
        const next = checked(ctx, { Start: start, End: end, Text: changes.Text ?? before.Text, Tags: changes.Tags ?? before.Tags, Variables: changes.Variables ?? before.Variables });
        const changed = (["Start", "End", "Text", "Tags", "Variables"] as const).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
        if (changed.length === 0) return { Version: before.Version };
        const version = await updateAnnotation(q, ID, next);
        await ctx.audit(`Changed annotation ${ID}: ${changed.join(", ")}`, q);
        return { Version: version };
      }),
  }),

  "AnnotationAPI.Remove": method({
    params: z.object({ ID: z.number().int() }),
    permission: null,
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const a = await requireAnnotation(q, p.ID);
        if (!isAuthor(a, ctx.me) && !ctx.me.permissions.has(MODERATE_ANNOTATIONS)) {
          throw forbidden(`Permission denied: only ${a.Author} or a holder of ${MODERATE_ANNOTATIONS} can remove annotation ${a.ID}`).coded("annotationNotAllowed", { author: a.Author });
        }
        await removeAnnotation(q, a.ID);
        await ctx.audit(`Removed annotation ${a.ID} by ${a.Author} at ${when(a)}: ${quoted(a.Text)}`, q);
        return {};
      }),
  }),
};
