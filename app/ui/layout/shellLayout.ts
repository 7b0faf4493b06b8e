import type { LayoutMode, LayoutType } from "~/schemas/preferences";

/** What each of spec §4's eight layouts draws (AppShell renders it). */
export interface ShellLayout {
  /** The menu is a sidebar (else a horizontal menu). */
  vertical: boolean;
  /** Denser menu entries. */
  compact: boolean;
  /** No top bar on md and up: logo, alarms and user menu head the sidebar instead. */
  noHeader: boolean;
  /** The sidebar as a dark floating panel. */
  modernSidebar: boolean;
  /** Horizontal menu on its own bar under the header (else inside the header). */
  menuBar: boolean;
  /** Header (and menu bar) dark whatever the theme. */
  darkChrome: boolean;
  /** Menu centred in the header with a brand-coloured rule under it. */
  topMenu: boolean;
}

const BASE: ShellLayout = { vertical: false, compact: false, noHeader: false, modernSidebar: false, menuBar: false, darkChrome: false, topMenu: false };

export const SHELL_LAYOUTS: Record<LayoutMode, ShellLayout> = {
  "horizontal-minimal": { ...BASE, compact: true },
  "horizontal-default": { ...BASE, menuBar: true },
  "horizontal-dark": { ...BASE, menuBar: true, darkChrome: true },
  "horizontal-top-menu": { ...BASE, topMenu: true },
  "vertical-default": { ...BASE, vertical: true },
  "vertical-minimal": { ...BASE, vertical: true, compact: true },
  "vertical-minimal-no-header": { ...BASE, vertical: true, compact: true, noHeader: true },
  "vertical-modern-sidebar": { ...BASE, vertical: true, modernSidebar: true },
};

/**
 * Spec §4, §9: full-width fills the window; boxed is 1300 px wide, 1740 px from xl (1920 px);
 * framed draws the console in a frame on screens from 1366 px wide.
 */
export const LAYOUT_TYPE_CLASS: Record<LayoutType, string> = {
  "full-width": "w-full",
  boxed: "mx-auto w-full max-w-[1300px] xl:max-w-[1740px] min-[1300px]:border-x min-[1300px]:border-slate-200 min-[1300px]:shadow-sm dark:border-slate-700",
  framed: "w-full min-[1366px]:m-6 min-[1366px]:w-auto min-[1366px]:overflow-clip min-[1366px]:rounded-xl min-[1366px]:border min-[1366px]:border-slate-300 min-[1366px]:shadow-lg dark:border-slate-700",
};
