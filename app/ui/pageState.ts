// List screens keep their forms in the URL (?add, ?edit=ID, ?remove=ID …) so that they work as
// plain links without JavaScript; these build those URLs, keeping search, sort and paging.

/** The query without any open panel. */
export function withoutPanels(params: URLSearchParams, panels: readonly string[]): string {
  const next = new URLSearchParams(params);
  for (const key of panels) next.delete(key);
  return next.toString();
}

/** The list URL with exactly one panel open. */
export function panelHref(params: URLSearchParams, panels: readonly string[], panel: string, id: number | string = ""): string {
  const next = new URLSearchParams(withoutPanels(params, panels));
  next.set(panel, String(id));
  return `?${next}`;
}

/** The list's own URL (path included) with at most one panel open: links and cancel targets. */
export function listHref(path: string, params: URLSearchParams, panels: readonly string[], panel?: string, id?: number | string): string {
  const next = new URLSearchParams(withoutPanels(params, panels));
  if (panel) next.set(panel, id === undefined ? "" : String(id));
  return next.size ? `${path}?${next}` : path;
}
