import { memo } from "react";
import { Link, useSearchParams } from "react-router";

/**
 * A column header that sorts through the query string (works without JavaScript). Memoised: a
 * live list renders again at every update, its headers only when the address changes.
 */
export const SortHeader = memo(function SortHeader({ column, label }: { column: string; label: string }) {
  const [params] = useSearchParams();
  const active = params.get("sort") === column;
  const dir = active && params.get("dir") !== "desc" ? "desc" : "asc";
  const next = new URLSearchParams(params);
  next.set("sort", column);
  next.set("dir", dir);
  for (const key of ["edit", "remove", "add", "password"]) next.delete(key);
  return (
    <th scope="col" role="columnheader" className="px-4 py-2 font-semibold whitespace-nowrap" aria-sort={active ? (dir === "desc" ? "ascending" : "descending") : "none"}>
      <Link to={`?${next}`} preventScrollReset className="inline-flex items-center gap-1 hover:text-brand">
        {label}
        <span aria-hidden="true" className="text-xs">
          {active ? (dir === "desc" ? "▲" : "▼") : "↕"}
        </span>
      </Link>
    </th>
  );
});

/** Sorts rows by the query's sort column and direction. */
export function sortRows<T>(rows: T[], params: URLSearchParams, columns: Record<string, (row: T) => string | number>, fallback: string): T[] {
  const key = params.get("sort") ?? fallback;
  // Own columns only: `?sort=__proto__` or `?sort=constructor` named Object's, and sorting by them threw.
  const get = (Object.hasOwn(columns, key) ? columns[key] : undefined) ?? columns[fallback]!;
  const factor = params.get("dir") === "desc" ? -1 : 1;
  return rows.toSorted((a, b) => {
    const x = get(a);
    const y = get(b);
    return factor * (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { sensitivity: "base", numeric: true }));
  });
}
