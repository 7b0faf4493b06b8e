import { useT } from "~/ui/useT";
import { Form, useLocation } from "react-router";
import type { Banner } from "~/services/banner";

const COLOURS: Record<Banner["severity"], string> = {
  error: "bg-red-100 text-red-900 border-red-300",
  warning: "bg-amber-100 text-amber-900 border-amber-300",
  info: "bg-sky-100 text-sky-900 border-sky-300",
  success: "bg-green-100 text-green-900 border-green-300",
};

/**
 * The maintenance banner. On a wall display (`kiosk`) it is read-only and large: nobody stands
 * there to dismiss it, and it must be read from across the room (issue 28 §B1).
 */
export function MaintenanceBanner({ banner, kiosk = false }: { banner: Banner; kiosk?: boolean }) {
  const t = useT();
  const location = useLocation();
  return (
    <div role="status" data-testid="maintenance-banner" data-severity={banner.severity} className={`flex items-center gap-3 border-b px-4 py-2 ${kiosk ? "shrink-0 text-[1rem] leading-tight" : "text-sm"} ${COLOURS[banner.severity]}`}>
      <strong className="shrink-0">{t("banner.title")}</strong>
      <span className="flex-1">{banner.text}</span>
      {!kiosk && (
        <Form method="post" action="/banner/dismiss">
          <input type="hidden" name="text" value={banner.text} />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit" className="rounded px-2 py-1 font-medium hover:bg-black/10" aria-label={t("banner.dismiss")}>
            {t("banner.dismiss")}
          </button>
        </Form>
      )}
    </div>
  );
}
