import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";
import { useConnection } from "./connection";

/**
 * "Reconnecting… (last update hh:mm:ss)" over the page while the console or the logger cannot be
 * reached (issue 26 §1): the page underneath is the last one drawn, and comes back by itself.
 * Only in the browser: a page the server renders was just answered.
 */
export function ConnectionStrip({ className = "" }: { className?: string }) {
  const t = useT();
  const { clock } = useFormatters();
  const c = useConnection();
  if (!c.reconnecting) return null;
  const time = c.lastOkAt ? clock(c.lastOkAt) : null;
  const key = c.cause === "logger" ? "connection.logger" : "connection.network";
  return (
    <p role="status" className={`sticky top-0 z-30 bg-amber-300 px-4 py-2 text-center font-semibold text-amber-950 ${className}`} data-testid="reconnecting" data-cause={c.cause ?? undefined}>
      {time ? t(`${key}Since`, { time }) : t(key)}
    </p>
  );
}

/**
 * The server's word that the logger did not answer within the page's deadline: what is shown was
 * kept from before (and since when), and what could not be read says so where it would be.
 */
export function LoggerAwayStrip({ since }: { since: number | null }) {
  const t = useT();
  const { clock } = useFormatters();
  return (
    <p role="status" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="logger-away">
      {since ? t("connection.keptSince", { time: clock(since) }) : t("connection.kept")}
    </p>
  );
}
