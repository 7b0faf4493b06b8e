import { z } from "zod";
import { notFound, refused } from "../http/errors.ts";
import { all, get, run, tx } from "../store/db.ts";
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
    handler: (p, ctx) => {
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
      return { Settings: all<Setting>(ctx.db, `SELECT ID, Key, Value FROM settings ${filter} ORDER BY ID`, ...args) };
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
      tx(ctx.db, () => {
        let settingId: number;
        if (p.ID <= 0) {
          const existing = get<Setting>(ctx.db, "SELECT ID FROM settings WHERE Key = ?", p.Key);
          if (existing) {
            run(ctx.db, "UPDATE settings SET Value = ? WHERE ID = ?", p.Value, existing.ID);
            settingId = existing.ID;
          } else {
            settingId = run(ctx.db, "INSERT INTO settings (Key, Value) VALUES (?, ?)", p.Key, p.Value);
          }
        } else {
          if (!get(ctx.db, "SELECT 1 FROM settings WHERE ID = ?", p.ID)) throw notFound(`Setting ${p.ID} not found`);
          const clash = get<Setting>(ctx.db, "SELECT ID FROM settings WHERE Key = ? AND ID <> ?", p.Key, p.ID);
          if (clash) throw refused(`Another setting already uses the key ${p.Key}`);
          run(ctx.db, "UPDATE settings SET Key = ?, Value = ? WHERE ID = ?", p.Key, p.Value, p.ID);
          settingId = p.ID;
        }
        ctx.audit(`Set setting ${p.Key}`);
        return { ID: settingId };
      }),
  }),
};
