import { Link } from "react-router";
import { REFRESH_MS } from "~/schemas/dashboardConstants";
import { resolveRefresh } from "~/ui/dashboard/timeRange";
import { useT } from "~/ui/useT";

/**
 * How often a list page showing the plant's state reloads itself without JavaScript (issue 28
 * §2): 30 s unless the URL asks otherwise (`?refresh=` as on dashboards: 5s…5m, or off).
 */
export const NOJS_LIST_REFRESH = "30s";

/** The seconds between reloads the URL asks for (0 = off). */
export function noScriptSeconds(params: URLSearchParams): number {
  return Math.round(REFRESH_MS[resolveRefresh(params, NOJS_LIST_REFRESH)] / 1000);
}

/**
 * Without JavaScript: reloads the page every `seconds`, as the dashboards do, and says so with a
 * link that pauses the reloads (before typing a comment, say) and one that resumes them. With
 * JavaScript the page polls or streams instead and nothing of this is applied (<noscript>).
 * Render it only in a page state without a form in progress (no open panel, no post's answer).
 */
export function NoScriptRefresh({ params }: { params: URLSearchParams }) {
  const t = useT();
  const seconds = noScriptSeconds(params);
  const href = (refresh: string | null) => {
    const next = new URLSearchParams(params);
    if (refresh) next.set("refresh", refresh);
    else next.delete("refresh");
    return next.size ? `?${next}` : "?";
  };
  return (
    <noscript>
      {seconds > 0 && <meta httpEquiv="refresh" content={String(seconds)} />}
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="nojs-refresh">
        {seconds > 0 ? t("autoRefresh.every", { seconds }) : t("autoRefresh.paused")}{" "}
        <Link to={seconds > 0 ? href("off") : href(null)} className="inline-flex min-h-11 items-center text-brand underline">
          {seconds > 0 ? t("autoRefresh.pause") : t("autoRefresh.resume")}
        </Link>
      </p>
    </noscript>
  );
}
