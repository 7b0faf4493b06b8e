import { summarizeFreshness, type Freshness, type FreshnessSummary } from "./freshness";

// One value-quality model for every live screen (issue 26 §3; docs/decisions/0015): each value is
// Live, Stale (with its age) or Offline, judged by freshness.ts from its own sample time, period
// and the connection — on the server for the page (so it is true without JavaScript) and again in
// the browser as time passes — and where it is known, why: acquisition stopped (by whom, when), the
// variable's device disconnected, the logger not answering, or this browser's connection lost.
// A page's badge is the worst of the values it shows, so it never says Live over a stale value.

export type QualityReason =
  | { kind: "stopped"; by: string | null; at: number | null }
  | { kind: "disconnected"; device: string }
  | { kind: "logger" }
  | { kind: "network" };

/** What the server read beside the values that says why they could stop. */
export interface QualityFacts {
  /** The project's acquisition (ProjectAPI.GetState); null when it could not be read. */
  acquisition: { running: boolean; since: number | null; by: string | null } | null;
  /** The device name of each judged variable whose device is disconnected. */
  disconnected: Record<string, string>;
}

/** How the page reaches the values: fine, the logger not answering, or the console lost. */
export type Link = "ok" | "logger" | "network";

export interface QualitySummary extends FreshnessSummary {
  /** Why the page's values are not live (the badge's and strip's words); null when live or unknown. */
  reason: QualityReason | null;
  /** Per judged id, why it is not live (null: live, or no known reason). */
  reasons: Record<string, QualityReason | null>;
  /** Per judged id, how old its value is at the summary's time (null: no time). */
  ages: Record<string, number | null>;
}

/** Why a value that is not live is so, from the link and the facts. */
export function reasonOf(id: string, state: Freshness, link: Link, facts: QualityFacts | null | undefined): QualityReason | null {
  if (state === "live") return null;
  if (state === "offline") return { kind: link === "network" ? "network" : "logger" };
  const acquisition = facts?.acquisition;
  if (acquisition && !acquisition.running) return { kind: "stopped", by: acquisition.by, at: acquisition.since };
  const device = facts?.disconnected[id];
  return device ? { kind: "disconnected", device } : null;
}

/**
 * Every value with a known time judged (see summarizeFreshness) with its reason, and the page's
 * summary: the worst state, its age and the reason of the first value in that state that has one.
 */
export function summarizeQuality(
  times: Readonly<Record<string, number | null>>,
  periods: Readonly<Record<string, number | null | undefined>>,
  nowMs: number,
  link: Link,
  facts?: QualityFacts | null,
): QualitySummary {
  const summary = summarizeFreshness(times, periods, nowMs, link === "ok");
  const reasons: Record<string, QualityReason | null> = {};
  const ages: Record<string, number | null> = {};
  let reason: QualityReason | null = null;
  for (const [id, state] of Object.entries(summary.each)) {
    const t = times[id];
    ages[id] = t === null || t === undefined || !Number.isFinite(t) ? null : Math.max(0, nowMs - t);
    reasons[id] = reasonOf(id, state, link, facts);
    if (!reason && state === summary.state) reason = reasons[id];
  }
  if (summary.state === "offline" && !reason) reason = { kind: link === "network" ? "network" : "logger" };
  return { ...summary, reason, reasons, ages };
}
