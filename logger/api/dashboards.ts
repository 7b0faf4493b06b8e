import { z } from "zod";
import { SEVERITIES } from "../alarms/types.ts";
import { conflict, describeZodError, invalidParam, notFound } from "../http/errors.ts";
import type { Db } from "../store/db.ts";
import { findDashboard, findVersion, insertDashboard, KEPT_VERSIONS, listVersions, removeDashboard, setDefaultDashboard, updateDashboard } from "../store/dashboards.ts";
import type { Dashboard } from "../store/dashboards.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";

// The stored layout of a dashboard (docs/logger-api.md, "Dashboards"). The console keeps a twin of
// this schema; the logger checks it too so that a script cannot store what no console can draw.
export const WIDGET_TYPES = ["chart", "value", "gauge", "bar", "lamp", "table", "text", "alarms"] as const;
export const COLOURS = ["green", "amber", "red", "blue", "grey"] as const;
// The console's quick ranges, plus "5m" that dashboards stored before them may have.
export const RANGES = ["5m", "15m", "1h", "6h", "24h", "7d", "30d"] as const;
export const REFRESH = ["off", "5s", "10s", "30s", "1m", "5m"] as const;

const finite = z.number().refine(Number.isFinite, { message: "Must be a finite number" });
const colour = z.enum(COLOURS);

const widgetOptions = z.object({
  Min: finite.optional(),
  Max: finite.optional(),
  Precision: z.number().int().min(0).max(12).optional(),
  Thresholds: z.array(z.object({ Value: finite, Color: colour })).max(8).optional(),
  States: z.array(z.object({ Value: finite, Label: z.string().max(40), Color: colour })).max(16).optional(),
  Text: z.string().max(4000).optional(),
  Sparkline: z.boolean().optional(),
  // Alarm list (Type "alarms").
  OnlyUnacknowledged: z.boolean().optional(),
  MinSeverity: z.enum(SEVERITIES).optional(),
  MaxRows: z.number().int().min(1).max(100).optional(),
});

const widget = z.object({
  ID: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, { message: "1–40 letters, digits, _ or -" }),
  Type: z.enum(WIDGET_TYPES),
  Title: z.string().max(100).default(""),
  X: z.number().int().min(0).max(23),
  Y: z.number().int().min(0).max(999),
  W: z.number().int().min(1).max(24),
  H: z.number().int().min(1).max(24),
  Variables: z.array(z.string().min(1).max(100)).max(8).default([]),
  Options: widgetOptions.default({}),
});

export const dashboardContent = z
  .object({
    Columns: z.number().int().min(1).max(24).default(12),
    RowHeight: z.number().int().min(20).max(400).default(80),
    Range: z.enum(RANGES).default("1h"),
    Refresh: z.enum(REFRESH).default("30s"),
    Widgets: z.array(widget).max(64).default([]),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.Widgets.forEach((w, i) => {
      if (w.X + w.W > c.Columns) ctx.addIssue({ code: "custom", path: ["Widgets", i, "W"], message: `Widget ${w.ID} reaches past column ${c.Columns}` });
      if (seen.has(w.ID)) ctx.addIssue({ code: "custom", path: ["Widgets", i, "ID"], message: `Widget ID ${w.ID} is used twice` });
      seen.add(w.ID);
    });
  });
export type DashboardContent = z.output<typeof dashboardContent>;

const dashboardId = z.string().trim().min(1).max(64);
const dashboardName = nameField(100, { empty: "Dashboard name must not be empty" });

const versionNumber = z.number().int().min(1);
const STALE = "This dashboard was changed by someone else meanwhile; reload and try again";

async function requireVersion(db: Db, id: string, version: number) {
  const v = await findVersion(db, id, version);
  if (!v) throw notFound(`Version ${version} of dashboard ${id} is not kept`).coded("versionNotKept", { version });
  return v;
}

async function requireDashboard(db: Db, id: string): Promise<Dashboard> {
  const d = await findDashboard(db, id);
  if (!d) throw notFound(`Dashboard ${id} not found`);
  return d;
}

export const dashboardMethods: Registry = {
  "WebUIAPI.GetDashboard": method({
    params: z.object({ ID: dashboardId, Version: versionNumber.optional() }),
    permission: "ViewDashboards",
    handler: async (p, ctx) => {
      const d = await requireDashboard(ctx.db, p.ID);
      if (p.Version === undefined || p.Version === d.Version) {
        const author = (await findVersion(ctx.db, d.ID, d.Version))?.Author ?? "";
        return { Dashboard: { ID: d.ID, Name: d.Name, IsDefault: d.IsDefault, Version: d.Version, Updated: d.Updated, Author: author, Content: d.Content } };
      }
      const v = await requireVersion(ctx.db, d.ID, p.Version);
      return { Dashboard: { ID: d.ID, Name: v.Name, IsDefault: d.IsDefault, Version: v.Version, Updated: v.Updated, Author: v.Author, Content: v.Content } };
    },
  }),

  // Every save keeps a version (the newest KEPT_VERSIONS of each dashboard).
  "WebUIAPI.ListDashboardVersions": method({
    params: z.object({ ID: dashboardId }),
    permission: "ViewDashboards",
    handler: async (p, ctx) => {
      const d = await requireDashboard(ctx.db, p.ID);
      return { ID: d.ID, Current: d.Version, Kept: KEPT_VERSIONS, Versions: await listVersions(ctx.db, d.ID) };
    },
  }),

  // The kept version's name and content become a new version: nothing of the history is lost.
  "WebUIAPI.RestoreDashboardVersion": method({
    params: z.object({ ID: dashboardId, Version: versionNumber, CurrentVersion: versionNumber.optional() }),
    permission: "ManageDashboards",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const d = await requireDashboard(q, p.ID);
        if (p.CurrentVersion !== undefined && p.CurrentVersion !== d.Version) throw conflict(STALE).coded("stale");
        const v = await requireVersion(q, d.ID, p.Version);
        // A version stored before a rule changed must still be one a console can draw.
        const content = dashboardContent.safeParse(v.Content);
        if (!content.success) throw invalidParam(describeZodError(content.error, "Content"));
        if (v.Name === d.Name && JSON.stringify(content.data) === JSON.stringify(d.Content)) return { ID: d.ID, Version: d.Version };
        const next = await updateDashboard(q, d.ID, v.Name, content.data, ctx.me.username);
        await ctx.audit(`Restored dashboard ${d.Name}${v.Name !== d.Name ? ` (now ${v.Name})` : ""} to version ${v.Version} (as version ${next})`, q);
        return { ID: d.ID, Version: next };
      }),
  }),

  "WebUIAPI.SaveDashboard": method({
    params: z.object({
      Dashboard: z.object({ ID: dashboardId.optional(), Name: dashboardName, Content: dashboardContent, Version: z.number().int().optional() }),
    }),
    permission: "ManageDashboards",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const { ID, Name, Content, Version } = p.Dashboard;
        if (ID === undefined) {
          const added = await insertDashboard(q, Name, Content, ctx.me.username);
          await ctx.audit(`Added dashboard ${Name}`, q);
          return { ID: added.ID, Version: added.Version };
        }
        const stored = await requireDashboard(q, ID);
        if (Version !== undefined && Version !== stored.Version) {
          throw conflict(STALE).coded("stale");
        }
        const changes: string[] = [];
        if (Name !== stored.Name) changes.push("Name");
        if (JSON.stringify(Content) !== JSON.stringify(stored.Content)) changes.push("Content");
        if (!changes.length) return { ID: stored.ID, Version: stored.Version };
        const next = await updateDashboard(q, stored.ID, Name, Content, ctx.me.username);
        await ctx.audit(`Changed dashboard ${stored.Name}${Name !== stored.Name ? ` (now ${Name})` : ""}: ${changes.join(", ")}`, q);
        return { ID: stored.ID, Version: next };
      }),
  }),

  "WebUIAPI.RemoveDashboard": method({
    params: z.object({ ID: dashboardId }),
    permission: "ManageDashboards",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const d = await requireDashboard(q, p.ID);
        await removeDashboard(q, d.ID);
        // Wall displays open "the default dashboard": another one takes over rather than none.
        if (d.IsDefault) {
          const next = await q.get<{ ID: string }>("SELECT ID FROM dashboards ORDER BY Name COLLATE NOCASE, ID LIMIT 1");
          if (next) await setDefaultDashboard(q, next.ID);
        }
        await ctx.audit(`Removed dashboard ${d.Name}`, q);
        return {};
      }),
  }),

  "WebUIAPI.SetDefaultDashboard": method({
    params: z.object({ ID: dashboardId }),
    permission: "ManageDashboards",
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const d = await requireDashboard(q, p.ID);
        if (d.IsDefault) return {};
        await setDefaultDashboard(q, d.ID);
        await ctx.audit(`Set default dashboard ${d.Name}`, q);
        return {};
      }),
  }),
};
