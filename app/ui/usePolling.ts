import { useEffect } from "react";
import { useRevalidator } from "react-router";

/** With JavaScript, reloads the page's data every `ms` while the tab is visible and idle. */
export function usePolling(ms: number, enabled = true) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!enabled) return;
    const id = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, ms);
    return () => clearInterval(id);
  }, [ms, enabled, revalidator]);
}
