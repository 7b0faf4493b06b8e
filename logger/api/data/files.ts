import { createReadStream, createWriteStream } from "node:fs";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { RpcError, conflict, invalidParam, notFound } from "../../http/errors.ts";
import type { RestRoute } from "../../http/rest.ts";
import { sendData } from "../../http/rest.ts";
import { nameProblem, sanitiseName, splitPath } from "../../files/paths.ts";
import { UdbfError } from "../../udbf/reader.ts";
import { CsvImportError } from "./import-csv.ts";
import { previewFile, typeOfName } from "./preview.ts";
import { PreviewLayout } from "./preview-schema.ts";

// The file browser's API over the data root (docs/logger-api.md, "Files"). Paths are relative
// to the root with "/" separators; FileRoot.resolve is the only way from a path to the disk.

export const UPLOAD_LIMIT = 20 * 1024 * 1024;

const TYPES: Record<string, string> = {
  ".txt": "text/plain; charset=utf-8", ".log": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
  ".csv": "text/csv; charset=utf-8", ".json": "application/json", ".xml": "application/xml",
  ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
  ".svg": "image/svg+xml", ".pdf": "application/pdf",
};
const contentType = (name: string) => TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";

const pathParam = z.object({ Path: z.string().max(2048).default("") });
const named = pathParam.extend({ Name: z.string().min(1).max(1024) });

function checkName(name: string): string {
  const problem = nameProblem(name);
  if (problem) throw invalidParam(problem);
  return name;
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(() => true, () => false);
}

export const fileRoutes: RestRoute[] = [
  {
    // Loggia: what a data file (.dat/.udbf UDBF, .csv) holds, read in place (docs/logger-api.md, "Data file preview").
    method: "POST",
    pattern: /^\/files\/preview$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const p = await r.input(pathParam.extend({ Type: z.enum(["csv", "udbf"]).optional(), CSVSettings: PreviewLayout.optional() }));
      const file = r.ctx.files.resolve(p.Path);
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) throw notFound(`No such file: ${p.Path}`);
      try {
        sendData(r.res, { Path: p.Path, ...(await previewFile(file, p.Type ?? typeOfName(file), p.CSVSettings ?? null)) });
      } catch (err) {
        if (err instanceof UdbfError || err instanceof CsvImportError) throw invalidParam(err.message);
        throw err;
      }
    },
  },
  {
    method: "GET",
    pattern: /^\/files\/list$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const { Path } = await r.input(pathParam);
      const dir = r.ctx.files.resolve(Path);
      if (!(await stat(dir)).isDirectory()) throw invalidParam(`Not a folder: ${Path}`);
      const entries = await readdir(dir, { withFileTypes: true });
      const Entries = await Promise.all(
        entries.map(async (e) => {
          const st = await lstat(join(dir, e.name));
          const Type = st.isDirectory() ? "folder" : st.isFile() ? "file" : st.isSymbolicLink() ? "link" : "other";
          return { Name: e.name, Type, Size: st.isFile() ? st.size : 0, Modified: st.mtime.toISOString(), ContentType: contentType(e.name) };
        }),
      );
      sendData(r.res, { Path, Entries });
    },
  },
  {
    method: "GET",
    pattern: /^\/files\/download$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const { Path } = await r.input(pathParam);
      const file = r.ctx.files.resolve(Path);
      // O_NOFOLLOW: the resolved path must not have been swapped for a link since.
      const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
        throw notFound(`No such file: ${Path}`);
      });
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        throw invalidParam(`Not a file: ${Path}`);
      }
      const name = basename(file);
      r.res.writeHead(200, {
        "Content-Type": contentType(name),
        "Content-Length": String(st.size),
        "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
        "X-Content-Type-Options": "nosniff",
      });
      await pipeline(createReadStream("", { fd: handle }), r.res);
    },
  },
  {
    method: "POST",
    pattern: /^\/files\/upload$/,
    body: "bytes",
    handler: async (r) => {
      r.require("UseFilebrowser");
      const dir = r.ctx.files.resolve(r.url.searchParams.get("Path") ?? "");
      if (!(await stat(dir)).isDirectory()) throw invalidParam("Uploads go into a folder");
      const name = sanitiseName(r.url.searchParams.get("Name") ?? "");
      const target = join(dir, name);
      if (await exists(target)) throw conflict(`A file or folder named ${name} already exists`).coded("fileExists", { name });
      const declared = Number(r.req.headers["content-length"] ?? 0);
      if (declared > UPLOAD_LIMIT) throw new RpcError(413, -6, `Files are limited to ${UPLOAD_LIMIT / 1024 / 1024} MB`);
      const temp = join(dir, `.upload-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      let size = 0;
      try {
        await pipeline(
          // Not the request itself: a failed pipeline destroys its streams, and destroying the
          // request cuts the connection before the 413 can be answered.
          r.req.iterator({ destroyOnReturn: false }),
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              size += chunk.length;
              if (size > UPLOAD_LIMIT) throw new RpcError(413, -6, `Files are limited to ${UPLOAD_LIMIT / 1024 / 1024} MB`);
              yield chunk;
            }
          },
          createWriteStream(temp, { flags: "wx" }),
        );
        await rename(temp, target);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      r.audit(`Uploaded file ${relative(r.url.searchParams.get("Path") ?? "", name)}`);
      sendData(r.res, { Path: relative(r.url.searchParams.get("Path") ?? "", name), Size: size });
    },
  },
  {
    method: "POST",
    pattern: /^\/files\/folder$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const { Path, Name } = await r.input(named);
      const dir = r.ctx.files.resolve(Path);
      const target = join(dir, checkName(Name));
      if (await exists(target)) throw conflict(`A file or folder named ${Name} already exists`).coded("fileExists", { name: Name });
      await mkdir(target);
      r.audit(`Created folder ${relative(Path, Name)}`);
      sendData(r.res, { Path: relative(Path, Name) });
    },
  },
  {
    method: "POST",
    pattern: /^\/files\/rename$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const { Path, Name } = await r.input(named);
      if (Path === "") throw invalidParam("The root cannot be renamed");
      const from = r.ctx.files.resolve(Path);
      const target = join(dirname(from), checkName(Name));
      if (await exists(target)) throw conflict(`A file or folder named ${Name} already exists`).coded("fileExists", { name: Name });
      await rename(from, target);
      const parent = Path.split("/").slice(0, -1).join("/");
      r.audit(`Renamed ${Path} to ${relative(parent, Name)}`);
      sendData(r.res, { Path: relative(parent, Name) });
    },
  },
  {
    method: "POST",
    pattern: /^\/files\/delete$/,
    handler: async (r) => {
      r.require("UseFilebrowser");
      const { Path } = await r.input(pathParam);
      if (Path === "") throw invalidParam("The root cannot be deleted");
      // The link itself goes, never what it points to.
      const segments = splitPath(Path);
      const target = join(r.ctx.files.resolve(segments.slice(0, -1).join("/")), segments.at(-1)!);
      if (!(await exists(target))) throw notFound(`No such file or folder: ${Path}`);
      await rm(target, { recursive: true });
      r.audit(`Deleted ${Path}`);
      sendData(r.res, { Path });
    },
  },
];

function relative(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}
