import { useCallback, useEffect, useState } from "react";

type Sample = { t: number; values: Record<string, number | null>; times?: Record<string, number | null> };

/**
 * When each shown value was sampled: first the server's timestamps, then what the live stream
 * reports (each value's own sample time when the relay sends it, else the event's time for the
 * values it carries), so a value that stops changing ages and turns stale by itself.
 */
export function useValueTimes(initial: Record<string, number | null>) {
  const [times, setTimes] = useState(initial);
  useEffect(() => setTimes(initial), [initial]);
  const onSample = useCallback((s: Sample) => {
    setTimes((prev) => {
      const next = { ...prev };
      if (s.times) {
        for (const [id, at] of Object.entries(s.times)) if (at !== null && at !== undefined) next[id] = at;
      } else {
        for (const [id, v] of Object.entries(s.values)) if (v !== null) next[id] = s.t;
      }
      return next;
    });
  }, []);
  return { times, onSample };
}
