import { z } from "zod";
import { visibleOnly } from "./visibleText";

/** One key/value pair as the metadata forms post it; an empty value removes the key. */
export const metaEntrySchema = z.object({
  key: visibleOnly(z.string({ error: "history.metadata.keyRequired" }).trim().min(1, "history.metadata.keyRequired").max(64, "history.metadata.keyRequired")),
  value: z.string().trim().max(1000, "history.metadata.valueTooLong").optional().default(""),
});

export const META_TYPES = ["measurement", "variable", "device"] as const;
export type MetaType = (typeof META_TYPES)[number];
