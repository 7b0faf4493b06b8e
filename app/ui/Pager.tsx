import { useT } from "~/ui/useT";
import { Link, useSearchParams } from "react-router";

/** Previous/next links through Limit/Offset in the URL (works without JavaScript). */
export function Pager({ total, limit, offset, param = "offset", testId }: { total: number; limit: number; offset: number; param?: string; testId?: string }) {
  const t = useT();
  const [params] = useSearchParams();
  if (total <= limit && offset === 0) return null;
  const href = (to: number) => {
    const next = new URLSearchParams(params);
    if (to > 0) next.set(param, String(to));
    else next.delete(param);
    return `?${next}`;
  };
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.floor(offset / limit) + 1;
  const link = "rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700";
  return (
    <nav className="flex items-center gap-3 text-sm" aria-label={t("live.pages")} data-testid={testId}>
      {offset > 0 ? (
        <Link to={href(Math.max(0, offset - limit))} className={link} preventScrollReset>
          {t("live.previous")}
        </Link>
      ) : (
        <span className={`${link} opacity-40`} aria-disabled="true">
          {t("live.previous")}
        </span>
      )}
      <span>{t("live.pageOf", { page, pages })}</span>
      {offset + limit < total ? (
        <Link to={href(offset + limit)} className={link} preventScrollReset>
          {t("live.next")}
        </Link>
      ) : (
        <span className={`${link} opacity-40`} aria-disabled="true">
          {t("live.next")}
        </span>
      )}
    </nav>
  );
}
