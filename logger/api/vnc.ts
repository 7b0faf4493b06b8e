import { z } from "zod";
import { checkClient, PUBLIC_CLIENT_ID } from "../auth/clients.ts";
import { forbidden, notFound, refused } from "../http/errors.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { id, nameField } from "./schemas.ts";

// VNC targets for the console's VNC view. The console's WebSocket proxy connects only to a
// target stored here (never to an address a browser names); the password is handed out only by
// Connect, and only to a caller that also proves it is the console (its OAuth client secret, as
// RFC 6749 §2.3.1's client_secret_post): a signed-in user calling the API directly gets 403.

type Row = { ID: number; Name: string; Host: string; Port: number; Password: string };

// A host name (RFC 1123 labels) or an IPv4/IPv6 literal; no scheme, path or spaces.
const host = z
  .string()
  .trim()
  .min(1, { message: "Host must not be empty" })
  .max(253)
  .refine((h) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\.?$/.test(h) || /^\[?[0-9A-Fa-f:.]+\]?$/.test(h), {
    message: "Host must be a host name or an IP address",
  });

export const vncMethods: Registry = {
  "VncAPI.List": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => ({
      Targets: (await ctx.db.all<Row>("SELECT ID, Name, Host, Port, Password FROM vnc_targets ORDER BY Name COLLATE NOCASE, ID")).map((t) => ({
        ID: t.ID,
        Name: t.Name,
        Host: t.Host,
        Port: t.Port,
        HasPassword: t.Password !== "",
      })),
    }),
  }),

  "VncAPI.Set": method({
    params: z.object({
      ID: id.default(-1),
      Name: nameField(64),
      Host: host,
      Port: z.number().int().min(1).max(65535),
      // Omitted: keep the stored password (or none for a new target); "" removes it.
      Password: z.string().max(64).optional(),
    }),
    permission: "ManageGlobalSettings",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const hostName = p.Host.replace(/^\[(.*)\]$/, "$1");
        const clash = await q.get<{ ID: number }>("SELECT ID FROM vnc_targets WHERE Name = ? AND ID <> ?", p.Name, p.ID);
        if (clash) throw refused(`Another VNC target is already called ${p.Name}`).coded("vncNameTaken", { name: p.Name });
        let targetId: number;
        if (p.ID <= 0) {
          const row = await q.get<{ ID: number }>("INSERT INTO vnc_targets (Name, Host, Port, Password) VALUES (?, ?, ?, ?) RETURNING ID", p.Name, hostName, p.Port, p.Password ?? "");
          targetId = row!.ID;
        } else {
          if (!(await q.get("SELECT 1 FROM vnc_targets WHERE ID = ?", p.ID))) throw notFound(`VNC target ${p.ID} not found`);
          await q.run("UPDATE vnc_targets SET Name = ?, Host = ?, Port = ? WHERE ID = ?", p.Name, hostName, p.Port, p.ID);
          if (p.Password !== undefined) await q.run("UPDATE vnc_targets SET Password = ? WHERE ID = ?", p.Password, p.ID);
          targetId = p.ID;
        }
        await ctx.audit(`Set VNC target ${p.Name}`, q);
        return { ID: targetId };
      }),
  }),

  "VncAPI.Remove": method({
    params: z.object({ ID: id }),
    permission: "ManageGlobalSettings",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const row = await q.get<Row>("SELECT Name FROM vnc_targets WHERE ID = ?", p.ID);
        if (!row) throw notFound(`VNC target ${p.ID} not found`);
        await q.run("DELETE FROM vnc_targets WHERE ID = ?", p.ID);
        await ctx.audit(`Removed VNC target ${row.Name}`, q);
        return {};
      }),
  }),

  "VncAPI.Connect": method({
    params: z.object({ ID: id, ClientID: z.string().max(200).default(""), ClientSecret: z.string().max(500).default("") }),
    permission: null,
    handler: async (p, ctx) => {
      if (p.ClientID === PUBLIC_CLIENT_ID || !checkClient(ctx.clients, p.ClientID, p.ClientSecret)) {
        throw forbidden("Only the console's server may open a VNC connection (client credentials required)");
      }
      const row = await ctx.db.get<Row>("SELECT ID, Name, Host, Port, Password FROM vnc_targets WHERE ID = ?", p.ID);
      if (!row) throw notFound(`VNC target ${p.ID} not found`);
      return { ID: row.ID, Name: row.Name, Host: row.Host, Port: row.Port, Password: row.Password };
    },
  }),
};
