import { useEffect, useMemo, useRef, useState } from "react";
import { mergeTimes, summarizeFreshness, type FreshnessSummary } from "./freshness";

export type LiveState = "connecting" | "live" | "offline";
export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
  /** Each value's own sample time (the WebSocket relay); without it every value counts as of `t`. */
  times?: Record<string, number | null>;
}

/** What the server read with the values, so the page judges them as the server did (issue 15 §1). */
export interface Stamps {
  /** Sample time per judged id (epoch ms; null: the logger has none). Ids not here are not judged. */
  times: Record<string, number | null>;
  /** Sample period per id (ms). */
  periods: Record<string, number | null>;
  /** The server's clock when it read them. */
  at: number;
  /** The server could not read them (logger away): offline until the stream says otherwise. */
  offline?: boolean;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 30_000;
/** How often ages are looked at again: a value that stops updating turns stale with no event. */
const TICK_MS = 1_000;

/**
 * Current values of `ids` over the /live relay (Server-Sent Events). Starts from the values the
 * server rendered. EventSource retries dropped connections itself but gives up for good after an
 * HTTP error (e.g. 503 while the logger is away), so then this reconnects with backoff — a wall
 * display recovers unattended. With `stamps` it also judges every value live/stale/offline.
 */
export function useLiveValues(ids: readonly string[], initial: Record<string, number | null>, onSample?: (s: LiveSample) => void, stamps?: Stamps) {
  const [values, setValues] = useState(initial);
  const [state, setState] = useState<LiveState>("connecting");
  const [times, setTimes] = useState(stamps?.times);
  // Ages on the logger's clock: `skew` is this browser's clock minus it, first from the server's
  // render, then from the stream (the newest sample of an event is at most a tick old).
  const skew = useRef<number | null>(null);
  const [now, setNow] = useState(stamps?.at ?? 0);
  const key = ids.join(",");
  useEffect(() => setValues(initial), [initial]);
  useEffect(() => {
    setTimes(stamps?.times);
    if (stamps) skew.current = Math.min(skew.current ?? Infinity, Date.now() - stamps.at);
  }, [stamps]);
  const judged = stamps !== undefined;
  useEffect(() => {
    if (!judged) return;
    const tick = () => setNow(Date.now() - (skew.current ?? 0));
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, [judged]);
  useEffect(() => {
    if (!key) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = RETRY_MIN_MS;
    // Set by the relay's `renew` event: the stream ends because the access token ran out and the
    // browser comes straight back with its cookie, so the next error is not an outage.
    let renewing = false;
    const connect = () => {
      source = new EventSource(`/live?variables=${encodeURIComponent(key)}`);
      source.onopen = () => {
        delay = RETRY_MIN_MS;
        renewing = false;
        setState("live");
      };
      source.addEventListener("renew", () => {
        renewing = true;
      });
      source.onmessage = (event) => {
        try {
          const sample = JSON.parse(event.data) as LiveSample;
          setValues((v) => ({ ...v, ...sample.values }));
          skew.current = Math.min(skew.current ?? Infinity, Date.now() - sample.t);
          const stamped = sample.times ?? Object.fromEntries(Object.keys(sample.values).map((id) => [id, sample.t]));
          setTimes((t) => mergeTimes(t, stamped));
          setState("live");
          onSample?.(sample);
        } catch {
          // A malformed event is skipped; the next one brings fresh values.
        }
      };
      source.onerror = () => {
        // Only the planned end itself is let pass: if the reconnect fails too, that is an outage.
        // Meanwhile each value is still judged by its own age.
        if (renewing && source?.readyState === EventSource.CONNECTING) {
          renewing = false;
          return;
        }
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
  const freshness: FreshnessSummary | null = useMemo(
    () => (stamps && times ? summarizeFreshness(times, stamps.periods, now, state === "live" || (state === "connecting" && !stamps.offline)) : null),
    [stamps, times, now, state],
  );
  return { values, state, freshness };
}
