import { useEffect, useState } from "react";
import type { HeaderAlerts } from "~/services/header.server";
import { connectionLost, connectionOk, connectionState, retryDelayMs } from "~/ui/connection/connection";

export type AlarmFeed = HeaderAlerts["alarms"];

/**
 * How often a page with JavaScript asks for the alarm state (the banner, the bell, the
 * annunciator). It is also the page's heartbeat: a lost connection shows within this (plus the
 * request's own 3 s bound when the network drops packets instead of refusing them).
 */
export const FEED_MS = 4_000;
const FEED_TIMEOUT_MS = 3_000;

/**
 * The alarm state a page shows: the server's at the page load, then with JavaScript the alarm
 * feed's every FEED_MS (issue 26 §4). A feed that cannot be read makes the state "unknown" — an
 * alarm shown from before could be untrue by now — and the page reconnecting. `enabled`: the
 * page's caller is signed in (for others the feed says nothing, and has nobody to ask for).
 */
export function useAlarmFeed(initial: AlarmFeed, enabled: boolean): AlarmFeed {
  const [alarms, setAlarms] = useState(initial);
  useEffect(() => setAlarms(initial), [initial]);
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout>;
    let failures = 0;
    let stopped = false;
    let running = false;
    const poll = async () => {
      clearTimeout(timer);
      if (running) return;
      running = true;
      if (document.visibilityState === "visible") {
        try {
          const res = await fetch("/alarms/feed", { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(FEED_TIMEOUT_MS) });
          const body = (await res.json()) as { alarms?: unknown };
          if (!res.ok || !isFeed(body.alarms)) throw new Error(`alarm feed: ${res.status}`);
          failures = 0;
          connectionOk();
          if (!stopped) setAlarms(body.alarms);
        } catch {
          failures++;
          connectionLost();
          if (!stopped) setAlarms((a) => (a === null ? null : "unknown"));
        }
      }
      running = false;
      if (!stopped) timer = setTimeout(poll, failures || connectionState().reconnecting ? retryDelayMs(failures) : FEED_MS);
    };
    timer = setTimeout(poll, FEED_MS);
    const now = () => void poll();
    window.addEventListener("online", now);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", now);
    };
  }, [enabled]);
  return alarms;
}

function isFeed(value: unknown): value is AlarmFeed {
  if (value === null || value === "unknown") return true;
  const v = value as { active?: unknown; unacknowledged?: unknown; waiting?: unknown } | null;
  return typeof v?.active === "number" && typeof v.unacknowledged === "number" && Array.isArray(v.waiting);
}
