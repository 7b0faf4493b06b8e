import { useT } from "~/ui/useT";
import { DefaultLogo } from "./DefaultLogo";
import { useCallback, useState } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { Icon } from "./Icon";
import { groupActive, type NavEntry, type NavGroup, type NavLink } from "./navTree";

/**
 * Below md the one menu (header menu, or the sidebar in the vertical layout) becomes the drawer
 * the ☰ toggle opens — a <details>, so it works without JavaScript. One menu in the page, not a
 * second copy for the drawer: it was a quarter of a page's elements.
 */
export const DRAWER = "hidden group-has-[#nav-drawer[open]]/shell:block fixed inset-x-0 bottom-0 top-[76px] z-30 overflow-y-auto shadow-xl";

function ItemLink({ link, className }: { link: NavLink; className: string }) {
  const t = useT();
  const { pathname } = useLocation();
  const text = link.text ?? t(link.label ?? "");
  const body = (
    <>
      {link.icon && <Icon name={link.icon} className="h-4 w-4 shrink-0" />}
      <span className={link.bold ? "font-bold" : undefined}>{text}</span>
    </>
  );
  if (link.logout) {
    return (
      <Form method="post" action="/logout" className="contents">
        <button type="submit" className={`${className} w-full text-left`} data-testid="nav-logout">
          {body}
        </button>
      </Form>
    );
  }
  if (link.external) {
    return (
      <a href={link.to} className={className} target="_blank" rel="noreferrer">
        {body}
      </a>
    );
  }
  // A plain anchor: the menu's one click handler (useMenuClicks) navigates. React Router's
  // NavLink costs each of the page's ~70 menu entries a route resolution, four hooks and ~5 KB of
  // garbage per render — ~0.4 ms of a dashboard page's server time. Active as NavLink's `end` would be.
  const here = pathname.toLowerCase().replace(/(.)\/$/, "$1") === link.to.split(/[?#]/)[0]!.toLowerCase();
  return (
    <a href={link.to} data-nav="" aria-current={here ? "page" : undefined} className={`${className} ${here ? "bg-brand-light text-brand font-semibold dark:bg-slate-700 dark:text-white" : ""}`}>
      {body}
    </a>
  );
}

/**
 * Client navigation for a menu's plain anchors (ItemLink), as React Router's Link does it: a
 * plain left click without modifier keys stays in the app; anything else is the browser's.
 */
function useMenuClicks() {
  const navigate = useNavigate();
  return useCallback(
    (event: React.MouseEvent<HTMLElement>) => {
      const anchor = (event.target as Element).closest?.("a[data-nav]");
      if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      const to = anchor.getAttribute("href")!;
      const { pathname, search, hash } = window.location;
      void navigate(to, { replace: to === pathname + search + hash });
    },
    [navigate],
  );
}

// Colours for a light bar and, via chrome-dark, for a dark one (dark/semi-dark themes, the dark layouts).
const itemColours = "hover:bg-brand-light hover:text-brand dark:hover:bg-slate-700 dark:hover:text-white chrome-dark:hover:bg-slate-700 chrome-dark:hover:text-white";
const itemFull = `flex items-center gap-2 rounded px-3 py-2 text-sm ${itemColours}`;
/** The minimal layouts: the same menu, denser. */
const compactItemClass = `flex items-center gap-2 rounded px-2 py-1 text-[13px] ${itemColours}`;
const activeGroup = "data-[active]:text-brand data-[active]:font-semibold chrome-dark:data-[active]:text-sky-300";

function GroupItems({ group, compact = false }: { group: NavGroup; compact?: boolean }) {
  const t = useT();
  const itemClass = compact ? compactItemClass : itemFull;
  return (
    <ul className="flex flex-col gap-0.5">
      {group.items.map((l) => (
        <li key={l.key}>
          <ItemLink link={l} className={itemClass} />
        </li>
      ))}
      {group.section && (
        <li className="mt-1 border-t border-slate-200 pt-1 dark:border-slate-700">
          <div className="px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500 chrome-dark:text-slate-400">{t(group.section.label)}</div>
          {group.section.items.length === 0 ? (
            <div className="px-3 py-1 text-sm text-slate-500">{t("nav.noDashboards")}</div>
          ) : (
            <ul data-testid="dashboard-selection">
              {group.section.items.map((l) => (
                <li key={l.key}>
                  <ItemLink link={l} className={itemClass} />
                </li>
              ))}
            </ul>
          )}
        </li>
      )}
      {group.sub?.map((sub) => (
        <li key={sub.id}>
          <SubGroup group={sub} compact={compact} />
        </li>
      ))}
    </ul>
  );
}

function SubGroup({ group, compact }: { group: NavGroup; compact: boolean }) {
  const t = useT();
  const itemClass = compact ? compactItemClass : itemFull;
  const { pathname } = useLocation();
  const active = groupActive(group, pathname);
  return (
    <details open={active || undefined} className="group/sub">
      <summary data-active={active || undefined} className={`${itemClass} ${activeGroup}`}>
        <Icon name={group.icon} className="h-4 w-4" />
        {t(group.label)}
      </summary>
      <div className="pl-4">
        <GroupItems group={group} compact={compact} />
      </div>
    </details>
  );
}

/** Horizontal header menu (md and up): top-level links and dropdown groups. */
export function HeaderMenu({ entries, compact = false, className = "" }: { entries: NavEntry[]; compact?: boolean; className?: string }) {
  const t = useT();
  const itemClass = compact ? compactItemClass : itemFull;
  const { pathname } = useLocation();
  const onClick = useMenuClicks();
  return (
    <nav
      aria-label={t("nav.main")}
      className={`${DRAWER} bg-white p-3 text-slate-900 dark:bg-slate-800 dark:text-slate-100 md:static md:z-auto md:block md:overflow-visible md:bg-transparent md:p-0 md:text-inherit md:shadow-none md:dark:bg-transparent ${className}`}
      onClick={onClick}
    >
      <ul className="flex flex-col gap-0.5 md:flex-row md:flex-wrap md:items-center md:gap-1 md:[justify-content:inherit]">
        {entries.map((e) =>
          e.kind === "link" ? (
            <li key={e.link.key}>
              <ItemLink link={e.link} className={itemClass} />
            </li>
          ) : (
            <li key={e.group.id} className="relative">
              <details data-menu className="relative">
                <summary
                  data-active={groupActive(e.group, pathname) || undefined}
                  className={`${itemClass} ${activeGroup}`}
                >
                  <Icon name={e.group.icon} className="h-4 w-4" />
                  {t(e.group.label)}
                  <span aria-hidden="true">▾</span>
                </summary>
                <div
                  className={`pl-4 md:absolute md:left-0 md:z-30 md:mt-1 md:max-h-[calc(100vh-96px)] md:max-w-[calc(100vw-2rem)] md:overflow-y-auto md:rounded-md md:border md:border-slate-200 md:bg-white md:p-1 md:text-slate-900 md:shadow-lg md:dark:border-slate-700 md:dark:bg-slate-800 md:dark:text-slate-100 md:chrome-dark:border-slate-700 md:chrome-dark:bg-slate-800 md:chrome-dark:text-slate-100 ${e.group.id === "dashboard" ? "md:min-w-[300px]" : "md:min-w-56"}`}
                >
                  <GroupItems group={e.group} compact={compact} />
                </div>
              </details>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/** Vertical menu: the sidebar (md and up, vertical layout) and the drawer below md. */
export function SideMenu({ entries, label, compact = false }: { entries: NavEntry[]; label: string; compact?: boolean }) {
  const t = useT();
  const itemClass = compact ? compactItemClass : itemFull;
  const { pathname } = useLocation();
  const onClick = useMenuClicks();
  return (
    <nav aria-label={label} onClick={onClick}>
      <ul className="flex flex-col gap-0.5">
        {entries.map((e) =>
          e.kind === "link" ? (
            <li key={e.link.key}>
              <ItemLink link={e.link} className={itemClass} />
            </li>
          ) : (
            <li key={e.group.id}>
              <details open={groupActive(e.group, pathname) || undefined}>
                <summary
                  data-active={groupActive(e.group, pathname) || undefined}
                  className={`${itemClass} ${activeGroup}`}
                >
                  <Icon name={e.group.icon} className="h-4 w-4" />
                  {t(e.group.label)}
                </summary>
                {/* Nested in the sidebar, never wider than it: the Dashboard Selection's 300 px
                    minimum is the header popup's (spec §9), a sidebar may be 280 px wide. */}
                <div className="min-w-0 pl-4">
                  <GroupItems group={e.group} compact={compact} />
                </div>
              </details>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

export function Logo({ src, className = "" }: { src: string | null; className?: string }) {
  const t = useT();
  // A custom logo that cannot be loaded (the network away, issue 26 §1) gives way to the default
  // one rather than a broken image.
  const [failed, setFailed] = useState<string | null>(null);
  const custom = src && failed !== src ? src : null;
  // Spec §9: default logo 151x41, custom logo up to 215x69.
  return (
    <Link to="/" className={`flex items-center ${className}`} aria-label={t("nav.home")}>
      {custom ? (
        <img src={custom} alt="Loggia" className="max-h-[69px] max-w-[215px] object-contain" onError={() => setFailed(custom)} />
      ) : (
        <DefaultLogo />
      )}
    </Link>
  );
}
