import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { invalidParam, notFound } from "../http/errors.ts";

// Every file path from a client goes through here: the answer is a path inside the data root,
// or a refusal that says why. Nothing else in logger/files joins client text onto a path.

export const MAX_NAME_BYTES = 255;
export const MAX_PATH_CHARS = 1024;

/** Why a single name is refused, or null. */
export function nameProblem(name: string): string | null {
  if (name === "") return "Empty names are not allowed";
  if (name.includes("\0")) return "NUL bytes are not allowed in names";
  if (name === "." || name === "..") return "The names . and .. are not allowed";
  if (name.includes("/") || name.includes("\\")) return "Names may not contain / or \\";
  // Some layer may decode them once more: %2f would become a separator there.
  if (/%[0-9a-f]{2}/i.test(name)) return "Percent-encoded characters (encoded separators) are not allowed in names";
  if (name.includes(":")) return "Colons (drive letters) are not allowed in names";
  if (/[\x00-\x1f\x7f]/.test(name)) return "Control characters are not allowed in names";
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `Names are limited to ${MAX_NAME_BYTES} bytes`;
  return null;
}

/** The segments of a relative path ("" is the root); refuses anything that could leave it. */
export function splitPath(rel: string): string[] {
  if (rel.length > MAX_PATH_CHARS) throw invalidParam(`Paths are limited to ${MAX_PATH_CHARS} characters`);
  if (rel.includes("\0")) throw invalidParam("NUL bytes are not allowed in paths");
  if (rel.includes("\\")) throw invalidParam("Backslashes are not allowed in paths");
  if (rel.startsWith("/") || /^[a-zA-Z]:/.test(rel)) throw invalidParam("Absolute paths are not allowed");
  if (rel === "") return [];
  return rel.split("/").map((segment) => {
    const problem = nameProblem(segment);
    if (problem) throw invalidParam(`Invalid path: ${problem}`);
    return segment;
  });
}

export class FileRoot {
  readonly dir: string;
  private real: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.dir = dir;
    this.real = realpathSync(dir);
  }

  private inside(p: string): boolean {
    return p === this.real || p.startsWith(this.real + sep);
  }

  /**
   * The absolute path of `rel`. Symbolic links on the way are followed only when they stay
   * inside the root. With `allowMissing` the last segment may not exist yet (a new name).
   */
  resolve(rel: string, allowMissing = false): string {
    const segments = splitPath(rel);
    let current = this.real;
    for (const [i, segment] of segments.entries()) {
      current = join(current, segment);
      let st;
      try {
        st = lstatSync(current);
      } catch {
        if (allowMissing && i === segments.length - 1) return current;
        throw notFound(`No such file or folder: ${rel}`);
      }
      if (st.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(current);
        } catch {
          throw invalidParam(`Broken symbolic link: ${rel}`);
        }
        if (!this.inside(target)) throw invalidParam("Symbolic links leading outside the data root are refused");
        current = target;
      }
    }
    return current;
  }
}

/** An uploaded file's name made safe: its last path part, no control or reserved characters. */
export function sanitiseName(raw: string): string {
  let name = (raw.split(/[\\/]/).pop() ?? "").normalize("NFC");
  name = name.replace(/[\x00-\x1f\x7f]/g, "").replace(/[<>:"|?*%]/g, "_").trim().replace(/^\.+/, "");
  while (Buffer.byteLength(name) > MAX_NAME_BYTES) name = name.slice(0, -1);
  return name || "upload";
}
