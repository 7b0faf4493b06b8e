import { z } from "zod";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS } from "./visibleText";

// The annotations screen's form (issue 28 §6): times are read on the server (typed in the user's
// locale and zone, or epoch ms from a chart); text and tags are checked here too. Messages are
// i18n keys.

export const MAX_TEXT = 2000;

export const annotationFormSchema = z.object({
  start: z.string({ error: "annotations.errors.start" }).trim().min(1, "annotations.errors.start"),
  end: z.string().trim().optional(),
  // A note may span lines (as the logger takes it); only the other invisible characters are refused.
  text: z
    .string({ error: "annotations.errors.text" })
    .trim()
    .min(1, "annotations.errors.text")
    .max(MAX_TEXT, "annotations.errors.textTooLong")
    .refine((s) => !hasInvisibleCharacters(s.replace(/\r?\n/g, " ")), INVISIBLE_CHARACTERS),
  tags: z
    .string()
    .optional()
    .transform((s) => [...new Set((s ?? "").split(",").map((x) => x.trim()).filter(Boolean))])
    // Checked on the list as a whole: the form shows the errors of `tags`, not of `tags[2]`.
    .pipe(
      z
        .array(z.string())
        .max(10, "annotations.errors.tags")
        .refine((tags) => tags.every((tag) => tag.length <= 40), "annotations.errors.tag")
        .refine((tags) => !tags.some(hasInvisibleCharacters), INVISIBLE_CHARACTERS),
    ),
  v: z.array(z.string().min(1).max(100)).max(16).optional().default([]),
});
export type AnnotationForm = z.output<typeof annotationFormSchema>;
