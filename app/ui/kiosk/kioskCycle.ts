/**
 * Rotation of a wall display through the dashboards (`/dashboard?kiosk&cycle=<seconds>`, issue 15
 * §5). With JavaScript the page moves on after `cycle` s; without it a <meta refresh> does, and
 * when the dashboard's own refresh is due earlier the page refreshes itself first, carrying the
 * moment to move on (`due`, epoch seconds) so the rotation keeps its pace.
 */
export const CYCLE_MIN_S = 5;
export const CYCLE_MAX_S = 3600;

/** A whole number of seconds in range, else null (a bad value is ignored, not an error). */
export function parseCycle(raw: string | null): number | null {
  if (raw === null || !/^\d{1,5}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= CYCLE_MIN_S && n <= CYCLE_MAX_S ? n : null;
}

export interface CyclePlan {
  /** The next dashboard's kiosk address. */
  next: string;
  /** Seconds until the move (JavaScript's timer). */
  leftS: number;
  /** The <meta refresh> without JavaScript: after `seconds`, load `url`. */
  meta: { seconds: number; url: string };
}

export const kioskHref = (id: string, cycle: number, due?: number) => `/dashboard?${new URLSearchParams({ kiosk: "", cycle: String(cycle), id, ...(due ? { due: String(due) } : {}) })}`;

/**
 * What to do next, or null without rotation (no valid cycle, or fewer than two dashboards).
 * `refreshS`: how often the shown dashboard refreshes itself without JavaScript.
 */
export function planCycle(params: URLSearchParams, ids: readonly string[], currentId: string, refreshS: number, nowS: number): CyclePlan | null {
  const cycle = parseCycle(params.get("cycle"));
  const at = ids.indexOf(currentId);
  if (cycle === null || ids.length < 2 || at < 0) return null;
  const next = kioskHref(ids[(at + 1) % ids.length]!, cycle);
  const asked = Number(params.get("due"));
  // A `due` from an earlier refresh of this page; anything outside this cycle is ignored.
  const due = Number.isInteger(asked) && asked > nowS && asked <= nowS + cycle ? asked : nowS + cycle;
  const leftS = due - nowS;
  const meta = refreshS > 0 && refreshS < leftS ? { seconds: refreshS, url: kioskHref(currentId, cycle, due) } : { seconds: leftS, url: next };
  return { next, leftS, meta };
}
