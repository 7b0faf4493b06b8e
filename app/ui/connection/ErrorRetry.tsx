import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useT } from "~/ui/useT";
import { retryDelayMs } from "./connection";

/** Answers that mean "not now" (the logger or a proxy away), not "never": the page tries again. */
export const TRANSIENT = new Set([0, 502, 503, 504]);

/**
 * On an error page for a transient fault: try again by itself — without JavaScript a <meta
 * refresh>, with it a revalidation with back-off (no reload: a reload that fails lands on the
 * browser's own error page) — so a wall display never stays on an error page (issue 26 §1).
 */
export function ErrorRetry({ status }: { status: number }) {
  const t = useT();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const transient = TRANSIENT.has(status);
  useEffect(() => {
    if (!transient) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(() => {
        attempt++;
        if (latest.current.state === "idle") void latest.current.revalidate();
        next();
      }, retryDelayMs(attempt));
    };
    next();
    return () => clearTimeout(timer);
  }, [transient]);
  if (!transient) return null;
  return (
    <>
      <noscript>
        <meta httpEquiv="refresh" content="10" />
      </noscript>
      <p className="text-center text-sm text-slate-600 dark:text-slate-300" role="status" data-testid="error-retry">
        {t("errors.retrying")}
      </p>
    </>
  );
}
