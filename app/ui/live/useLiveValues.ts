import { useEffect, useState } from "react";

export type LiveState = "connecting" | "live" | "offline";
export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
}

/**
 * Current values of `ids` over the /live relay (Server-Sent Events). Starts from the values the
 * server rendered; EventSource reconnects on its own, so a wall display recovers unattended.
 */
export function useLiveValues(ids: readonly string[], initial: Record<string, number | null>, onSample?: (s: LiveSample) => void) {
  const [values, setValues] = useState(initial);
  const [state, setState] = useState<LiveState>("connecting");
  const key = ids.join(",");
  useEffect(() => setValues(initial), [initial]);
  useEffect(() => {
    if (!key) return;
    const source = new EventSource(`/live?variables=${encodeURIComponent(key)}`);
    source.onopen = () => setState("live");
    source.onmessage = (event) => {
      try {
        const sample = JSON.parse(event.data) as LiveSample;
        setValues((v) => ({ ...v, ...sample.values }));
        setState("live");
        onSample?.(sample);
      } catch {
        // A malformed event is skipped; the next one brings fresh values.
      }
    };
    source.onerror = () => setState("offline");
    return () => source.close();
    // onSample is a callback of the caller's render; the stream follows the ids only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { values, state };
}
