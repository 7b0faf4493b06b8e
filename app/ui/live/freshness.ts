/**
 * Whether a shown value is still current (issue 15 §1). Shared by the server render (from the
 * values' timestamps, so pages without JavaScript tell the truth too) and the live hooks.
 * A value is stale once it is older than STALE_FACTOR sample periods; when the stream is lost or
 * the logger unreachable everything shown is "offline", whatever its age.
 */
export const STALE_FACTOR = 3;
/** A value without a known sample period is stale after this long. */
export const DEFAULT_STALE_MS = 5_000;
/** Periods below this are judged against it: ticks of the stream are not per sample. */
export const MIN_STALE_MS = 2_000;

export type Freshness = "live" | "stale" | "offline";

export function staleAfterMs(periodMs: number | null | undefined): number {
  if (!periodMs || !Number.isFinite(periodMs) || periodMs <= 0) return DEFAULT_STALE_MS;
  return Math.max(MIN_STALE_MS, STALE_FACTOR * periodMs);
}

export function periodMsOf(sampleRateHz: number | null | undefined): number | null {
  return sampleRateHz && sampleRateHz > 0 ? 1000 / sampleRateHz : null;
}

/** The freshness of one value stamped `timestampMs`, seen at `nowMs`, with the connection `connected`. */
export function freshnessOf(timestampMs: number | null | undefined, periodMs: number | null | undefined, nowMs: number, connected = true): Freshness {
  if (!connected) return "offline";
  if (timestampMs === null || timestampMs === undefined || !Number.isFinite(timestampMs)) return "stale";
  return nowMs - timestampMs > staleAfterMs(periodMs) ? "stale" : "live";
}

/**
 * The page's value times updated by a stream sample's. A null from the stream means the stream
 * does not know a time (a subscription made after acquisition stopped has seen no sample), not
 * that there never was one: it does not erase a time the page knows, so a frozen value keeps its
 * age ("Stale · 12 s") instead of losing it.
 */
export function mergeTimes(known: Readonly<Record<string, number | null>> | undefined, incoming: Readonly<Record<string, number | null>>): Record<string, number | null> {
  const merged: Record<string, number | null> = { ...known };
  for (const [id, t] of Object.entries(incoming)) if (t !== null || !(id in merged)) merged[id] = t;
  return merged;
}

/** The worst of several: one stale value makes a widget that shows it stale. */
export function worstFreshness(states: readonly Freshness[]): Freshness {
  if (states.includes("offline")) return "offline";
  if (states.includes("stale")) return "stale";
  return "live";
}

/**
 * Class for a value, gauge or lamp that is not live: greyed and hatched, so frozen data never
 * looks current (colour is not the only cue: the badge names the state and its age).
 */
export const NOT_LIVE_CLASS = "loggia-not-live";

/** What a screen shows as one badge: the worst state of its values, and how old that makes them. */
export interface FreshnessSummary {
  state: Freshness;
  /** Stale: the oldest stale value's age; offline: how long since the newest value; live: null. */
  ageMs: number | null;
  each: Record<string, Freshness>;
}

/**
 * Judges every value with a known time (`times` holds only ids whose time is known or was asked
 * for; null = the logger has no value) against its period (`periods`, ms).
 */
export function summarizeFreshness(times: Readonly<Record<string, number | null>>, periods: Readonly<Record<string, number | null | undefined>>, nowMs: number, connected = true): FreshnessSummary {
  const each: Record<string, Freshness> = {};
  let oldestStale: number | null = null;
  let newest: number | null = null;
  for (const [id, t] of Object.entries(times)) {
    const state = freshnessOf(t, periods[id], nowMs, connected);
    each[id] = state;
    if (t === null || !Number.isFinite(t)) continue;
    const age = Math.max(0, nowMs - t);
    if (state === "stale" && (oldestStale === null || age > oldestStale)) oldestStale = age;
    if (newest === null || age < newest) newest = age;
  }
  const state = connected ? worstFreshness(Object.values(each)) : "offline";
  return { state, ageMs: state === "stale" ? oldestStale : state === "offline" ? newest : null, each };
}
