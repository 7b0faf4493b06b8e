// The variable picker's pure part: what a search matches and how the list is grouped, shared by
// the server render (no-JS filter via ?q=) and the live filter in the browser.

export interface PickableVariable {
  Id: string;
  Name: string;
  Unit: string;
  /** Group heading; variables without one are grouped by DeviceId, then under "Other". */
  deviceName?: string;
  DeviceId?: string;
}

export interface VariableGroup {
  key: string;
  /** The device's name; "" for variables of no known device (the caller shows "Other"). */
  label: string;
  variables: PickableVariable[];
}

/** Every word of the query appears in the name, unit or device (case- and accent-insensitive). */
export function matchesQuery(v: PickableVariable, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = fold(`${v.Name} ${v.Unit} ${v.deviceName ?? ""}`);
  return words.every((w) => text.includes(w));
}

const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

/** Variables by device in the logger's order; `skip` leaves some out (the selected, listed apart). */
export function groupVariables(variables: readonly PickableVariable[], query: string, skip: ReadonlySet<string> = new Set()): VariableGroup[] {
  const groups = new Map<string, VariableGroup>();
  for (const v of variables) {
    if (skip.has(v.Id) || !matchesQuery(v, query)) continue;
    const key = v.deviceName || v.DeviceId || "";
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, label: v.deviceName || "", variables: [] }));
    g.variables.push(v);
  }
  return [...groups.values()];
}

/** A variable as listed: "Oil temperature [°C]". */
export const variableLabel = (v: Pick<PickableVariable, "Name" | "Unit">) => (v.Unit ? `${v.Name} [${v.Unit}]` : v.Name);
