import type uPlot from "uplot";

// One crosshair for all the charts of a page (issue 28 §6, as Grafana's shared crosshair): the
// charts of a dashboard (or of Analytics) share a uPlot sync key, so the pointer — or the
// keyboard cursor — on one chart moves a vertical line to the same time on every other one.
// The chart under the pointer shows its full read-out and both lines; the others follow with the
// vertical line, their points at that time and a compact read-out that stays inside their plot.

/**
 * The cursor options of a chart with this sync key: `following` is told whether the cursor it
 * shows is another chart's (set before uPlot moves the cursor, so the read-out knows).
 */
export function crosshairCursor(key: string, following: (yes: boolean) => void): Pick<uPlot.Cursor, "sync"> {
  const set = following;
  return {
    sync: {
      key,
      // Time only: the charts' value scales have nothing in common.
      scales: ["x", null],
      filters: {
        // This chart's own pointer (or keyboard) moved: it leads.
        pub: (type) => {
          if (type === "mousemove") set(false);
          return true;
        },
        // Another chart's moved: this one follows.
        sub: (type) => {
          if (type === "mousemove") set(true);
          return true;
        },
      },
    },
  };
}

/**
 * Marks a chart as following (or leading): a follower's horizontal line would point at a value
 * of another chart's scale, so CSS hides it there (app.css, `.loggia-following`).
 */
export function markFollowing(u: uPlot | null, yes: boolean): void {
  u?.root.classList.toggle("loggia-following", yes);
}

/**
 * Moves the cursor as a pointer would, so the other charts follow (uPlot's third argument
 * publishes it). Kept on the plot: the first bucket may start a little before the range, and a
 * cursor left of the plot is a hidden one, here and on every follower.
 */
export function moveCursorShared(u: uPlot, left: number, top: number, lead?: () => void): void {
  lead?.();
  (u.setCursor as (opts: { left: number; top: number }, fire?: boolean, pub?: boolean) => void)({ left: Math.max(0, left), top }, true, true);
}
