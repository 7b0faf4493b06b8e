import { useEffect, useMemo, useRef, useState } from "react";
import { connectionLost, retryDelayMs } from "~/ui/connection/connection";
import { mergeTimes } from "./freshness";
import { summarizeQuality, type Link, type QualityFacts, type QualitySummary } from "./quality";

export type LiveState = "connecting" | "live" | "offline";
export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
  /** Each value's own sample time (the WebSocket relay); without it every value counts as of `t`. */
  times?: Record<string, number | null>;
}

/** What the server read with the values, so the page judges them as the server did (issue 15 §1, issue 26 §3). */
export interface Stamps {
  /** Sample time per judged id (epoch ms; null: the logger has none). Ids not here are not judged. */
  times: Record<string, number | null>;
  /** Sample period per id (ms). */
  periods: Record<string, number | null>;
  /** The server's clock when it read them. */
  at: number;
  /** The server could not read them (logger away): offline until the stream says otherwise. */
  offline?: boolean;
  /** Why values could be stale (acquisition, devices), as the server read it. */
  facts?: QualityFacts | null;
}

/** How often ages are looked at again: a value that stops updating turns stale with no event. */
const TICK_MS = 1_000;
/**
 * The relay sends a beat every second: none for this long means the console or the network is
 * gone (a silent logger is told apart by the beats themselves), and the stream is opened again.
 */
const SILENCE_MS = 4_000;

/** A null from the stream is "no current value" (stopped, disconnected): the last reading stays, aged. */
export function mergeValues(known: Readonly<Record<string, number | null>>, incoming: Readonly<Record<string, number | null>>): Record<string, number | null> {
  const merged: Record<string, number | null> = { ...known };
  for (const [id, v] of Object.entries(incoming)) if (v !== null || !(id in merged)) merged[id] = v;
  return merged;
}

/**
 * Current values of `ids` over the /live relay (Server-Sent Events). Starts from the values the
 * server rendered. The relay's beats say whether the logger is heard from ("logger" when it is
 * silent or away); a stream without beats for SILENCE_MS is taken for lost ("network") and
 * opened again — 1 s, 2 s, then every 3 s, and at once when the browser is online again — so a
 * wall display is live again within 5 s of the logger or the network returning (issue 26 §1, §2).
 * With `stamps` it also judges every value live / stale / offline, with the reason.
 */
export function useLiveValues(ids: readonly string[], initial: Record<string, number | null>, onSample?: (s: LiveSample) => void, stamps?: Stamps) {
  const [values, setValues] = useState(initial);
  const [state, setState] = useState<LiveState>("connecting");
  const [link, setLink] = useState<Link>("ok");
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
    let attempt = 0;
    let lastEvent = Date.now();
    // Streams of a relay that beats are watched; an older relay's (no beats) are not.
    let beating = false;
    // Set by the relay's `renew` event: the stream ends because the access token ran out and the
    // browser comes straight back with its cookie, so the next error is not an outage.
    let renewing = false;
    const lost = (why: Link) => {
      setState("offline");
      setLink(why);
    };
    const reconnect = (delay: number) => {
      source?.close();
      source = null;
      clearTimeout(timer);
      timer = setTimeout(connect, delay);
    };
    // Events say the stream lives; they do not vouch for the connection (the requests do): an
    // open stream may outlive a network that refuses new requests.
    const heard = () => {
      lastEvent = Date.now();
    };
    const connect = () => {
      lastEvent = Date.now();
      beating = false;
      source = new EventSource(`/live?variables=${encodeURIComponent(key)}`);
      source.onopen = () => {
        renewing = false;
        heard();
      };
      source.addEventListener("renew", () => {
        renewing = true;
      });
      source.addEventListener("beat", (event) => {
        heard();
        beating = true;
        const logger = (JSON.parse((event as MessageEvent<string>).data) as { logger?: string }).logger;
        if (logger === "ok") {
          attempt = 0;
          setState("live");
          setLink("ok");
        } else lost("logger");
      });
      source.onmessage = (event) => {
        try {
          const sample = JSON.parse(event.data) as LiveSample;
          heard();
          attempt = 0;
          setValues((v) => mergeValues(v, sample.values));
          skew.current = Math.min(skew.current ?? Infinity, Date.now() - sample.t);
          const stamped = sample.times ?? Object.fromEntries(Object.entries(sample.values).flatMap(([id, v]) => (v === null ? [] : [[id, sample.t]])));
          setTimes((t) => mergeTimes(t, stamped));
          setState("live");
          setLink("ok");
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
        // The relay's "logger away" answer ends the stream on purpose (it retries by itself).
        if (source?.readyState === EventSource.CONNECTING && beating) return;
        lost("network");
        if (source?.readyState === EventSource.CLOSED) reconnect(retryDelayMs(attempt++));
      };
    };
    // No beat for SILENCE_MS: the console or the network is gone, whatever EventSource believes.
    const watchdog = setInterval(() => {
      if (!source || !beating || Date.now() - lastEvent < SILENCE_MS) return;
      lost("network");
      connectionLost();
      reconnect(retryDelayMs(attempt++));
    }, TICK_MS);
    const online = () => {
      attempt = 0;
      reconnect(0);
    };
    window.addEventListener("online", online);
    connect();
    return () => {
      clearTimeout(timer);
      clearInterval(watchdog);
      window.removeEventListener("online", online);
      source?.close();
    };
    // onSample is a callback of the caller's render; the stream follows the ids only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const connected = state === "live" || (state === "connecting" && !stamps?.offline);
  const freshness: QualitySummary | null = useMemo(
    () => (stamps && times ? summarizeQuality(times, stamps.periods, now, connected ? "ok" : state === "connecting" ? "logger" : link, stamps.facts) : null),
    [stamps, times, now, connected, state, link],
  );
  return { values, state, link, freshness };
}
