import { useT } from "~/ui/useT";
import { Form, Link } from "react-router";
import { Icon } from "./Icon";

/** Top-right popup (spec §2): Profile, Setting and Logout. */
export function UserMenu({ user }: { user: { name: string; email: string } }) {
  const t = useT();
  const item = "flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-brand-light hover:text-brand dark:hover:bg-slate-700";
  return (
    <details data-menu className="relative">
      <summary className="flex items-center gap-2 rounded-full px-2 py-1 hover:bg-black/5 dark:hover:bg-white/10" data-testid="user-menu">
        <span className="flex h-9 w-9 items-center justify-center rounded-full bg-brand text-sm font-semibold uppercase text-on-brand">
          {user.name.slice(0, 2)}
        </span>
        <span className="hidden text-sm font-medium lg:inline">{user.name}</span>
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-800">
        <div className="border-b border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
          <div className="font-semibold">{user.name}</div>
          {user.email && <div className="truncate text-slate-500">{user.email}</div>}
        </div>
        <Link to="/settings#profile" className={item}>
          <Icon name="user" className="h-4 w-4" />
          {t("userMenu.profile")}
        </Link>
        <Link to="/settings" className={item}>
          <Icon name="settings" className="h-4 w-4" />
          {t("userMenu.setting")}
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className={item}>
            <Icon name="logout" className="h-4 w-4" />
            {t("userMenu.logout")}
          </button>
        </Form>
      </div>
    </details>
  );
}
