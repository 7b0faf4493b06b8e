import { z } from "zod";
import { invalidParam, notFound } from "../http/errors.ts";
import { listDashboards } from "../store/dashboards.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { base64 } from "./schemas.ts";

// Logos under webui/ are shown on the sign-in page, before anyone has a token.
const PUBLIC_PREFIX = "webui/";
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const fileName = z
  .string()
  .min(1)
  .max(255)
  .refine((n) => !n.startsWith("/") && !n.includes("\\") && !n.split("/").some((s) => s === ".." || s === "."), {
    message: "Use a relative name such as webui/logo.png, without . or .. segments",
  });

export const webuiMethods: Registry = {
  "WebUIAPI.List": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => ({ List: await listDashboards(ctx.db) }),
  }),

  "WebUIAPI.DownloadFile": method({
    params: z.object({ FileName: fileName }),
    permission: (p) => (p.FileName.startsWith(PUBLIC_PREFIX) ? "public" : null),
    handler: async (p, ctx) => {
      const file = await ctx.db.get<{ ContentType: string; Content: Uint8Array }>(
        "SELECT ContentType, Content FROM files WHERE Name = ?",
        p.FileName,
      );
      if (!file) throw notFound(`File ${p.FileName} not found`);
      return { Content: Buffer.from(file.Content).toString("base64"), ContentType: file.ContentType };
    },
  }),

  "WebUIAPI.UploadFile": method({
    params: z.object({
      FileName: fileName,
      Content: base64,
      ContentType: z.string().min(1).max(128).default("application/octet-stream"),
    }),
    permission: (p) => (p.FileName.startsWith(PUBLIC_PREFIX) ? "ManageGlobalSettings" : "ManageDashboards"),
    // 2 MB of file is about 2.7 MB of base64 in JSON.
    maxBody: 3 * 1024 * 1024,
    handler: (p, ctx) => {
      const content = Buffer.from(p.Content, "base64");
      if (content.length > MAX_FILE_BYTES) throw invalidParam("Invalid parameter Content: file larger than 2 MB");
      return ctx.db.tx(async (q) => {
        await q.run(
          `INSERT INTO files (Name, ContentType, Content, Updated) VALUES (?, ?, ?, ?)
           ON CONFLICT(Name) DO UPDATE SET ContentType = excluded.ContentType, Content = excluded.Content, Updated = excluded.Updated`,
          p.FileName,
          p.ContentType,
          content,
          new Date().toISOString(),
        );
        await ctx.audit(`Uploaded file ${p.FileName}`, q);
        return { FileName: p.FileName };
      });
    },
  }),
};
