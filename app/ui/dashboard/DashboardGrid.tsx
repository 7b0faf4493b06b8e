import type { DashboardContent, Widget } from "~/schemas/dashboards";

/** Grid width the server assumes when it sizes SVG charts (a wall display or a wide window). */
export const GRID_WIDTH = 1200;

/**
 * Widgets at their stored positions from md up; below md one column in reading order. On a
 * kiosk the grid takes the height left on the screen and its rows share it (no scrolling at
 * any screen size); elsewhere rows have the dashboard's row height. The widgets `first` picks
 * (alarm lists with active alarms) come first in the page's order, so on a phone's one column
 * they lead, for the eye and the keyboard alike (issue 28 §3); from md up every widget keeps its
 * stored place. The kiosk keeps its own order.
 */
export function DashboardGrid({
  content,
  kiosk = false,
  first,
  children,
}: {
  content: DashboardContent;
  kiosk?: boolean;
  first?: (w: Widget) => boolean;
  children: (w: Widget, approx: { width: number; height: number }) => React.ReactNode;
}) {
  const lead = (w: Widget) => (!kiosk && first?.(w) ? 0 : 1);
  const ordered = content.Widgets.toSorted((a, b) => lead(a) - lead(b) || a.Y - b.Y || a.X - b.X);
  const rows = Math.max(1, ...content.Widgets.map((w) => w.Y + w.H));
  const rowsClass = kiosk ? "md:min-h-0 md:flex-1 md:grid-rows-[repeat(var(--rows),minmax(0,1fr))]" : "md:auto-rows-[var(--row)]";
  return (
    <div
      className={`grid grid-cols-1 gap-3 md:grid-cols-[repeat(var(--cols),minmax(0,1fr))] ${rowsClass}`}
      style={{ "--cols": content.Columns, "--row": `${content.RowHeight}px`, "--rows": rows } as React.CSSProperties}
      data-testid="dashboard-grid"
    >
      {ordered.map((w) => (
        <div
          key={w.ID}
          className="min-h-[var(--h)] md:min-h-0 md:[grid-column:var(--x)] md:[grid-row:var(--y)]"
          data-first={lead(w) === 0 ? "" : undefined}
          style={{ "--x": `${w.X + 1} / span ${w.W}`, "--y": `${w.Y + 1} / span ${w.H}`, "--h": `${Math.max(w.H * content.RowHeight, 120)}px` } as React.CSSProperties}
        >
          {children(w, { width: (w.W / content.Columns) * GRID_WIDTH - 24, height: w.H * content.RowHeight - 56 })}
        </div>
      ))}
    </div>
  );
}
