// Kept apart from globalSettings.ts (its form schema and texts): the root loader reads this on
// every page, and the feature's text files follow a route's imports (routeTexts.test.ts).

/** Alarm priorities the annunciator sounds for (Global Settings' `AnnunciatorSeverities`, issue 26 §4); none: it is off. */
export const ANNUNCIATOR_SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type AnnunciatorSeverity = (typeof ANNUNCIATOR_SEVERITIES)[number];

/** The stored list, keeping only known priorities (a hand-written setting cannot break the page). */
export function annunciatorSeverities(config: Record<string, unknown> | null | undefined): AnnunciatorSeverity[] {
  const stored = config?.AnnunciatorSeverities;
  const list: unknown[] = Array.isArray(stored) ? stored : [];
  return ANNUNCIATOR_SEVERITIES.filter((s) => list.includes(s));
}
