import { useEffect, useState } from "react";

export type LiveState = "connecting" | "live" | "offline";
export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/**
 * Current values of `ids` over the /live relay (Server-Sent Events). Starts from the values the
 * server rendered. EventSource retries dropped connections itself but gives up for good after an
 * HTTP error (e.g. 503 while the logger is away), so then this reconnects with backoff — a wall
 * display recovers unattended.
 */
export function useLiveValues(ids: readonly string[], initial: Record<string, number | null>, onSample?: (s: LiveSample) => void) {
  const [values, setValues] = useState(initial);
  const [state, setState] = useState<LiveState>("connecting");
  const key = ids.join(",");
  useEffect(() => setValues(initial), [initial]);
  useEffect(() => {
    if (!key) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = RETRY_MIN_MS;
    const connect = () => {
      source = new EventSource(`/live?variables=${encodeURIComponent(key)}`);
      source.onopen = () => {
        delay = RETRY_MIN_MS;
        setState("live");
      };
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
      source.onerror = () => {
        setState("offline");
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          timer = setTimeout(connect, delay);
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        }
      };
    };
    connect();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
    // onSample is a callback of the caller's render; the stream follows the ids only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { values, state };
}
