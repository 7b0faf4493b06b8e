import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";

/** While the logger is away the page asks this often, so it is back within 5 s of the logger (issue 26 §2). */
export const AWAY_POLL_MS = 3_000;

/**
 * Reloads the dashboard's data every `ms` through a fetcher (only this route's loader, with
 * ?poll so an unreachable logger answers "offline" instead of an error page) — every
 * AWAY_POLL_MS while the last answer was "offline". Returns the newest successful answer, and
 * whether the last poll found the logger away. A poll the network fails is held and tried again
 * by the data guard (app/ui/connection/dataGuard.ts), so the fetcher never errors.
 */
export function usePolledData<T extends { polled?: boolean; offline?: boolean }>(ms: number, loaderData: T): { data: T; offline: boolean } {
  // The loader's answer is plain JSON (no Dates), so it has the component's loaderData shape.
  const fetcher = useFetcher() as unknown as { data: T | undefined; state: string; load(href: string): Promise<void> };
  const latest = useRef(fetcher);
  latest.current = fetcher;
  const location = useLocation();
  const [shown, setShown] = useState<{ data: T; offline: boolean }>({ data: loaderData, offline: false });
  useEffect(() => setShown({ data: loaderData, offline: false }), [loaderData]);
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer) return;
    setShown((s) => (answer.offline ? { ...s, offline: true } : { data: answer, offline: false }));
  }, [fetcher.data]);
  const href = `${location.pathname}${location.search ? `${location.search}&` : "?"}poll`;
  const every = shown.offline ? AWAY_POLL_MS : ms;
  useEffect(() => {
    if (!every) return;
    const timer = setInterval(() => {
      if (latest.current.state === "idle") void latest.current.load(href);
    }, every);
    return () => clearInterval(timer);
  }, [every, href]);
  return shown;
}
