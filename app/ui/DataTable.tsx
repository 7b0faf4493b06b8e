import { Children, createContext, isValidElement, useContext, type ReactNode } from "react";
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

/** The column labels of the table being drawn, and the column of the cell being drawn. */
const ColumnsContext = createContext<readonly Column[] | null>(null);
const ColumnIndex = createContext<number | null>(null);

/**
 * The one table of every list screen. Wide tables scroll inside their own box (never the page).
 * Below 640 px (a phone, issue 28 §3) each row is a card instead: its fields one under the other,
 * each with its column's label, the actions a row of large targets at the foot (`.data-cards` in
 * app.css). The roles are written out so the cards stay a table to screen readers, whose headers
 * are still there, visually hidden. Dense tables (logs, traces) keep scrolling sideways.
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
    <div className={`relative max-w-full min-w-0 overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800 ${sticky ? "overflow-y-auto" : ""} ${dense ? "" : "data-cards"} ${className}`}>
      <table className={`w-full text-left ${dense ? "font-mono text-xs" : "text-sm"}`} data-testid={testId} role="table">
        <caption className="sr-only">{label}</caption>
        <thead className={`bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100 ${sticky ? "sticky top-0 z-10" : ""}`} role="rowgroup">
          <tr role="row">
            {columns.map((c, i) =>
              c.sort ? (
                <SortHeader key={c.sort} column={c.sort} label={c.label} />
              ) : (
                <th key={`${i}-${c.label}`} scope="col" role="columnheader" className={`${headCellClass} ${c.align === "end" ? "text-right" : ""} ${c.className ?? ""}`}>
                  {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {empty !== undefined && (
            <tr role="row">
              <td colSpan={columns.length} role="cell" className="px-4 py-6 text-center text-slate-600 dark:text-slate-300" data-testid={emptyTestId}>
                {empty}
              </td>
            </tr>
          )}
          <ColumnsContext.Provider value={columns}>{children}</ColumnsContext.Provider>
        </tbody>
      </table>
    </div>
  );
}

/**
 * A body row: zebra stripes and hover in both themes; extra props (data-*, aria-*) pass through.
 * Each element child is one cell, in the order of the columns (a cell learns its column's label
 * for the phone's cards from its place: conditional cells go with conditional columns).
 */
export function Row({ className = "", children, ...rest }: React.ComponentProps<"tr">) {
  let column = 0;
  return (
    <tr className={`border-t border-slate-100 even:bg-slate-50 hover:bg-brand/5 dark:border-slate-700 dark:even:bg-slate-800/60 ${className}`} role="row" {...rest}>
      {Children.map(children, (child) => (isValidElement(child) ? <ColumnIndex.Provider value={column++}>{child}</ColumnIndex.Provider> : child))}
    </tr>
  );
}

/** Nothing to show: a phone's card leaves the field out rather than show a label alone. */
function isEmpty(children: ReactNode): boolean {
  return Children.toArray(children).every((c) => typeof c === "string" && c.trim() === "");
}

/**
 * A body cell with the shared padding. On a phone it shows its column's label beside its value
 * (drawn by CSS from `data-label`, with empty alternative text: screen readers have the column
 * header); the actions column has none.
 */
export function Cell({ className = "", children, ...rest }: React.ComponentProps<"td">) {
  const columns = useContext(ColumnsContext);
  const index = useContext(ColumnIndex);
  const column = index === null || rest.colSpan ? undefined : columns?.[index];
  const label = column && !column.srOnly ? column.label : undefined;
  return (
    <td className={`${cellClass} ${className}`} role="cell" data-label={label} data-empty={isEmpty(children) ? "" : undefined} {...rest}>
      {label ? <div className="contents phone:block phone:min-w-0">{children}</div> : children}
    </td>
  );
}
