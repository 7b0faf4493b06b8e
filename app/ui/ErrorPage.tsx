import { useT } from "~/ui/useT";

/** 404 (spec §2), 403, requests the console refuses (400, 405, 413, 415, another site's), logger unreachable (502/503) and the 500 page. */
export function ErrorPage({ status, reason }: { status: number; reason?: string }) {
  const t = useT();
  let title: string;
  let detail: string | null = null;
  if (status === 404) title = t("errors.notFound");
  else if (status === 0) {
    title = t("errors.networkTitle");
    detail = t("errors.network");
  }
  else if (reason === "cross-origin") {
    title = t("errors.crossOriginTitle");
    detail = t("errors.crossOrigin");
  } else if (status === 413) {
    title = t("errors.tooLargeTitle");
    detail = t("errors.tooLarge");
  } else if (status === 400 || status === 405 || status === 415) {
    title = t("errors.badRequestTitle");
    detail = t(status === 405 ? "errors.method" : "errors.badRequest");
  } else if (status === 403) {
    title = t("errors.forbiddenTitle");
    detail = t("errors.forbidden");
  } else if (status === 503 || status === 502 || reason === "logger-unavailable") {
    title = t("errors.loggerUnavailableTitle");
    detail = reason === "logger-bad-answer" ? t("errors.loggerBadAnswer") : t("errors.loggerUnavailable");
  } else title = t("errors.server");
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center" data-testid={`error-${status}`}>
      {status !== 0 && <div className="text-6xl font-bold text-brand">{status}</div>}
      <h1 className="text-xl font-semibold">{title}</h1>
      {detail && <p className="text-slate-600 dark:text-slate-300">{detail}</p>}
      <a href="/" className="rounded-md bg-brand px-4 py-2 font-medium text-on-brand hover:bg-brand-hover hover:text-on-brand-hover">
        {t("errors.goHome")}
      </a>
    </div>
  );
}
