import type { ReactNode } from "react";
import { SortHeader } from "~/ui/SortHeader";

/** One column of a DataTable: its header label, and the query-string sort key if sortable. */
export interface Column {
  label: string;
  /** Sort key in `?sort=`; the header becomes a link that sorts without JavaScript. */
  sort?: string;
  /** Hide the label visually (e.g. the actions column) but keep it for screen readers. */
  srOnly?: boolean;
  align?: "start" | "end";
  className?: string;
}

/** Header cells share one look across every list screen. */
export const headCellClass = "px-4 py-2 font-semibold whitespace-nowrap";
export const cellClass = "px-4 py-2 align-top";

/**
 * The one table of every list screen. Wide tables scroll inside their own box (never the page),
 * at every width — one consistent rule instead of cards below `sm`, so columns keep their
 * headers and no-JS sorting links stay where users expect them.
 */
export function DataTable({
  label,
  columns,
  children,
  empty,
  emptyTestId = "table-empty",
  testId,
  sticky = false,
  dense = false,
  className = "",
}: {
  /** Accessible name of the table (rendered as a visually hidden caption). */
  label: string;
  columns: Column[];
  children: ReactNode;
  /** Content of the single row shown when there are no rows (omit when rows exist). */
  empty?: ReactNode;
  emptyTestId?: string;
  testId?: string;
  /** Keep the header visible while the box scrolls vertically (needs a height-limited box). */
  sticky?: boolean;
  /** Smaller monospace rows for logs and traces. */
  dense?: boolean;
  /** Extra classes for the scrolling box (e.g. a max height with `sticky`). */
  className?: string;
}) {
  return (
    <div className={`relative max-w-full min-w-0 overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800 ${sticky ? "overflow-y-auto" : ""} ${className}`}>
      <table className={`w-full text-left ${dense ? "font-mono text-xs" : "text-sm"}`} data-testid={testId}>
        <caption className="sr-only">{label}</caption>
        <thead className={`bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100 ${sticky ? "sticky top-0 z-10" : ""}`}>
          <tr>
            {columns.map((c, i) =>
              c.sort ? (
                <SortHeader key={c.sort} column={c.sort} label={c.label} />
              ) : (
                <th key={`${i}-${c.label}`} scope="col" className={`${headCellClass} ${c.align === "end" ? "text-right" : ""} ${c.className ?? ""}`}>
                  {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {empty !== undefined && (
            <tr>
              <td colSpan={columns.length} className="px-4 py-6 text-center text-slate-600 dark:text-slate-300" data-testid={emptyTestId}>
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** A body row: zebra stripes and hover in both themes; extra props (data-*, aria-*) pass through. */
export function Row({ className = "", children, ...rest }: React.ComponentProps<"tr">) {
  return (
    <tr className={`border-t border-slate-100 even:bg-slate-50 hover:bg-brand/5 dark:border-slate-700 dark:even:bg-slate-800/60 ${className}`} {...rest}>
      {children}
    </tr>
  );
}

/** A body cell with the shared padding. */
export function Cell({ className = "", children, ...rest }: React.ComponentProps<"td">) {
  return (
    <td className={`${cellClass} ${className}`} {...rest}>
      {children}
    </td>
  );
}
