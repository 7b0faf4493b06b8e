import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const constantsSchema = z.object({ urls: z.record(z.string(), z.string()) });
export type Constants = z.infer<typeof constantsSchema>;

// The same file the browser may GET at /resources/ConstantsLocal.json; deployments edit it in
// place, so it is re-read when it changes.
const candidates = [
  join(process.cwd(), "public", "resources", "ConstantsLocal.json"),
  join(process.cwd(), "build", "client", "resources", "ConstantsLocal.json"),
];
let cache: { path: string; mtime: number; value: Constants; checked: number } | null = null;
/** An edited file is picked up within a second; a page asks several times, and a stat each time was measurable. */
const RECHECK_MS = 1000;

export function loadConstants(): Constants {
  const now = Date.now();
  if (cache && now - cache.checked < RECHECK_MS) return cache.value;
  for (const path of candidates) {
    let mtime: number;
    try {
      mtime = statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if (cache && cache.path === path && cache.mtime === mtime) {
      cache.checked = now;
      return cache.value;
    }
    const value = constantsSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    cache = { path, mtime, value, checked: now };
    return value;
  }
  throw new Error("public/resources/ConstantsLocal.json is missing");
}
