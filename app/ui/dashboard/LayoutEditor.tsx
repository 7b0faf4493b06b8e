import { useEffect, useRef, useState } from "react";
import { useT } from "~/ui/useT";
import { Form, useNavigation } from "react-router";
import type { DashboardContent } from "~/schemas/dashboards";
import { buttonClass } from "~/ui/FormField";

type Box = { ID: string; X: number; Y: number; W: number; H: number };
const ROW_PX = 36;
const GAP_PX = 4;

/**
 * The grid in miniature. Without JavaScript it only shows where widgets are (positions are
 * numbers in each widget's form); with it, widgets move by dragging (resize at the lower right
 * corner) or by keyboard — arrows move, Shift+arrows resize — and "Save layout" posts them all.
 */
export function LayoutEditor({ dashboardId, version, content, titles }: { dashboardId: string; version: number; content: DashboardContent; titles: Record<string, string> }) {
  const t = useT();
  const navigation = useNavigation();
  const initial = content.Widgets.map(({ ID, X, Y, W, H }) => ({ ID, X, Y, W, H }));
  const [boxes, setBoxes] = useState<Box[]>(initial);
  const [hydrated, setHydrated] = useState(false);
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => setBoxes(content.Widgets.map(({ ID, X, Y, W, H }) => ({ ID, X, Y, W, H }))), [content]);
  const changed = JSON.stringify(boxes) !== JSON.stringify(initial);
  const rows = Math.max(4, ...boxes.map((b) => b.Y + b.H)) + 1;

  const update = (id: string, change: (b: Box) => Box) =>
    setBoxes((all) => all.map((b) => (b.ID === id ? clamp(change(b), content.Columns) : b)));

  const startDrag = (event: React.PointerEvent, box: Box, mode: "move" | "resize") => {
    if (event.button !== 0 || !grid.current) return;
    event.preventDefault();
    event.stopPropagation();
    const rect = grid.current.getBoundingClientRect();
    const col = (rect.width - GAP_PX * (content.Columns - 1)) / content.Columns + GAP_PX;
    const row = ROW_PX + GAP_PX;
    const start = { x: event.clientX, y: event.clientY };
    const onMove = (e: PointerEvent) => {
      const dx = Math.round((e.clientX - start.x) / col);
      const dy = Math.round((e.clientY - start.y) / row);
      update(box.ID, () => (mode === "move" ? { ...box, X: box.X + dx, Y: box.Y + dy } : { ...box, W: box.W + dx, H: box.H + dy }));
    };
    const onUp = () => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
  };

  const onKey = (event: React.KeyboardEvent, box: Box) => {
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = step[event.key];
    if (!d) return;
    event.preventDefault();
    update(box.ID, (b) => (event.shiftKey ? { ...b, W: b.W + d[0], H: b.H + d[1] } : { ...b, X: b.X + d[0], Y: b.Y + d[1] }));
  };

  return (
    <div className="flex flex-col gap-2" data-testid="layout-editor">
      {hydrated && <p className="text-xs text-slate-500">{t("dashboardManager.editor.layoutHint")}</p>}
      <div
        ref={grid}
        className="relative grid rounded-md bg-slate-100 p-1 dark:bg-slate-900"
        style={{ gridTemplateColumns: `repeat(${content.Columns}, minmax(0, 1fr))`, gridTemplateRows: `repeat(${rows}, ${ROW_PX}px)`, gap: GAP_PX }}
      >
        {boxes.map((b) => {
          const label = t("dashboardManager.editor.widgetAt", { title: titles[b.ID] ?? b.ID, x: b.X, y: b.Y, w: b.W, h: b.H });
          return (
            <div
              key={b.ID}
              role={hydrated ? "button" : undefined}
              tabIndex={hydrated ? 0 : undefined}
              aria-label={label}
              title={label}
              data-testid="layout-box"
              data-widget={b.ID}
              onPointerDown={hydrated ? (e) => startDrag(e, b, "move") : undefined}
              onKeyDown={hydrated ? (e) => onKey(e, b) : undefined}
              className="relative flex touch-none select-none items-start overflow-hidden rounded border border-brand/50 bg-white p-1 text-xs shadow-sm focus:outline-none focus:ring-2 focus:ring-brand dark:bg-slate-800"
              style={{ gridColumn: `${b.X + 1} / span ${b.W}`, gridRow: `${b.Y + 1} / span ${b.H}`, cursor: hydrated ? "move" : undefined }}
            >
              <span className="truncate">{titles[b.ID] ?? b.ID}</span>
              {hydrated && (
                <span
                  aria-hidden="true"
                  data-testid="layout-resize"
                  onPointerDown={(e) => startDrag(e, b, "resize")}
                  className="absolute bottom-0 right-0 h-3 w-3 cursor-se-resize rounded-tl bg-brand/60"
                />
              )}
            </div>
          );
        })}
      </div>
      {hydrated && changed && (
        <Form method="post" className="flex items-center gap-3" preventScrollReset>
          <input type="hidden" name="intent" value="layout" />
          <input type="hidden" name="id" value={dashboardId} />
          <input type="hidden" name="version" value={version} />
          <input type="hidden" name="layout" value={JSON.stringify(boxes)} />
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            {t("dashboardManager.editor.saveLayout")}
          </button>
          <span role="status" className="text-sm text-amber-700 dark:text-amber-400">
            {t("dashboardManager.editor.layoutChanged")}
          </span>
        </Form>
      )}
    </div>
  );
}

function clamp(b: Box, columns: number): Box {
  const W = Math.min(Math.max(b.W, 1), columns);
  const H = Math.min(Math.max(b.H, 1), 24);
  return { ...b, W, H, X: Math.min(Math.max(b.X, 0), columns - W), Y: Math.min(Math.max(b.Y, 0), 999) };
}
