import { z } from "zod";
import { notFound, refused } from "../http/errors.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { id } from "./schemas.ts";

type Setting = { ID: number; Key: string; Value: string };

// The sign-in page is themed from WebUI before anyone has a token.
const PUBLIC_KEY = "WebUI";

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

export const settingsMethods: Registry = {
  "GI.system/SettingsManagementAPI.GetSetting": method({
    params: z.object({ ID: id.default(-1), Key: z.string().default("") }),
    permission: (p) => (p.Key === PUBLIC_KEY ? "public" : null),
    handler: async (p, ctx) => {
      const where: string[] = [];
      const args: Array<string | number> = [];
      if (p.ID > 0) {
        where.push("ID = ?");
        args.push(p.ID);
      }
      // Key always narrows, so the public WebUI query can never return another setting.
      if (p.Key !== "") {
        where.push("Key = ?");
        args.push(p.Key);
      }
      const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
      return { Settings: await ctx.db.all<Setting>(`SELECT ID, Key, Value FROM settings ${filter} ORDER BY ID`, ...args) };
    },
  }),

  "GI.system/SettingsManagementAPI.SetSetting": method({
    params: z.object({
      ID: id.default(-1),
      Key: z.string().trim().min(1, { message: "Key must not be empty" }).max(128),
      Value: z.string().refine(isJson, { message: "Value must be a string holding valid JSON" }),
    }),
    permission: "ManageGlobalSettings",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        let settingId: number;
        if (p.ID <= 0) {
          const existing = await q.get<Setting>("SELECT ID FROM settings WHERE Key = ?", p.Key);
          if (existing) {
            await q.run("UPDATE settings SET Value = ? WHERE ID = ?", p.Value, existing.ID);
            settingId = existing.ID;
          } else {
            settingId = (await q.get<{ ID: number }>("INSERT INTO settings (Key, Value) VALUES (?, ?) RETURNING ID", p.Key, p.Value))!.ID;
          }
        } else {
          if (!(await q.get("SELECT 1 FROM settings WHERE ID = ?", p.ID))) throw notFound(`Setting ${p.ID} not found`);
          const clash = await q.get<Setting>("SELECT ID FROM settings WHERE Key = ? AND ID <> ?", p.Key, p.ID);
          if (clash) throw refused(`Another setting already uses the key ${p.Key}`).coded("settingKeyTaken", { key: p.Key });
          await q.run("UPDATE settings SET Key = ?, Value = ? WHERE ID = ?", p.Key, p.Value, p.ID);
          settingId = p.ID;
        }
        await ctx.audit(`Set setting ${p.Key}`, q);
        return { ID: settingId };
      }),
  }),
};
