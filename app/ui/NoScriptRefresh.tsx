import { REFRESH_MS } from "~/schemas/dashboardConstants";
import { resolveRefresh } from "~/ui/dashboard/timeRange";

/**
 * How often a list page showing the plant's state reloads itself without JavaScript (issue 28
 * §2): 30 s unless the URL asks otherwise (`?refresh=` as on dashboards: 5s…5m, or off), long
 * enough to tick a few alarms and type a comment between two reloads.
 */
export const NOJS_LIST_REFRESH = "30s";

/** The seconds between reloads the URL asks for (0 = off). */
export function noScriptSeconds(params: URLSearchParams): number {
  return Math.round(REFRESH_MS[resolveRefresh(params, NOJS_LIST_REFRESH)] / 1000);
}

/**
 * Reloads the page every `seconds` when JavaScript is off, as the dashboards do (with JavaScript
 * the page polls or streams instead, so the <noscript> keeps the two from doubling up). Render it
 * only in a page state without a form in progress (no open panel, no answer to a post).
 */
export function NoScriptRefresh({ seconds }: { seconds: number }) {
  if (seconds <= 0) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  );
}
