import { useEffect } from "react";
import { useSearchParams } from "react-router";

/** Seconds before a wall display retries a page that failed (logger or network away). */
const RETRY_S = 30;

/**
 * On an error page in kiosk mode: try again later, with or without JavaScript, so a wall
 * display never stays on an error page after the logger or the network came back.
 */
export function KioskRetry() {
  const [params] = useSearchParams();
  const kiosk = params.has("kiosk");
  useEffect(() => {
    if (!kiosk) return;
    const timer = setTimeout(() => window.location.reload(), RETRY_S * 1000);
    return () => clearTimeout(timer);
  }, [kiosk]);
  return kiosk ? (
    <noscript>
      <meta httpEquiv="refresh" content={String(RETRY_S)} />
    </noscript>
  ) : null;
}
