import { z } from "zod";
import { visibleOnly } from "./visibleText";
import { PERMISSIONS, type Permission } from "~/features";

// Shared by the role form (validation while typing) and the Role Management action (the same
// rules without JavaScript). Messages are i18n keys the form passes through t(). The limits
// are the logger's, so a form that passes here is refused only by a rule (duplicate name…).
export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 500;

/** Spec §6's permissions, grouped by area for the form. */
export const PERMISSION_GROUPS = [
  {
    key: "data",
    permissions: ["ViewDashboards", "ManageDashboards", "ViewAnalytics", "UseExport", "ViewStructure", "ViewCockpit", "ViewDevices", "UseMonitor"],
  },
  { key: "tools", permissions: ["UseFilebrowser", "UseRulesNotifications", "UseMetaData", "UseJupyterLab", "ViewLogs", "ManageProject"] },
  { key: "admin", permissions: ["ManageUsers", "ManageRoles", "ManageGlobalSettings"] },
] as const satisfies readonly { key: string; permissions: readonly Permission[] }[];

// Does not compile while a permission of the list is missing from every group: a permission
// added to features.ts must also get its place (and its explanation) in the form.
type Grouped = (typeof PERMISSION_GROUPS)[number]["permissions"][number];
const everyPermissionGrouped: Record<Exclude<Permission, Grouped>, never> = {};
void everyPermissionGrouped;

export function isKnownPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}

export const roleSchema = z.object({
  name: visibleOnly(
    z
      .string({ error: "roles.validation.nameRequired" })
      .trim()
      .min(1, "roles.validation.nameRequired")
      .max(NAME_MAX, "roles.validation.nameTooLong"),
  ),
  description: z.string().max(DESCRIPTION_MAX, "roles.validation.descriptionTooLong").optional(),
  permissions: z.array(z.enum(PERMISSIONS)).default([]),
});
export type RoleInput = z.output<typeof roleSchema>;
