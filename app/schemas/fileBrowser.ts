import { z } from "zod";

// The name rules of the logger's file API (docs/logger-api.md, "Files"), checked here first so
// the form explains them; the logger stays the authority and refuses with its own words.
export const UPLOAD_LIMIT = 20 * 1024 * 1024;

const fileName = z
  .string({ error: "fileBrowser.validation.nameRequired" })
  .trim()
  .min(1, "fileBrowser.validation.nameRequired")
  .refine((n) => new TextEncoder().encode(n).length <= 255, "fileBrowser.validation.nameLong")
  .refine((n) => n !== "." && n !== ".." && !/[/\\:\x00-\x1f\x7f]/.test(n) && !/%[0-9a-f]{2}/i.test(n), "fileBrowser.validation.nameChars");

export const folderSchema = z.object({ name: fileName });
export const renameSchema = z.object({ name: fileName });

/** The folder a path lies in ("" for the root). */
export const parentOf = (path: string) => path.split("/").slice(0, -1).join("/");
export const joinPath = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);
