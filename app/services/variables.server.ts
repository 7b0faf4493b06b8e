import type { LoggerClient } from "./logger/client.server";
import { devicesAnswer, onlineValuesAnswer, sourcesAnswer, sourceVariablesAnswer, variablesAnswer, type Device, type Variable } from "./logger/schemas";

export interface VariableRow extends Variable {
  deviceName: string;
  moduleName: string;
}

/**
 * The source each variable is recorded in, from the contract's listings (sources, then each
 * source's variables): how every client of the family builds its selectors. Cached while the
 * logger's revision stands (the listing changes only with the configuration).
 */
export async function variableSources(logger: LoggerClient): Promise<Map<string, string>> {
  const { Data: sources } = await logger.readRest("GET", "/history/structure/sources", undefined, sourcesAnswer);
  const lists = await Promise.all(sources.map((s) => logger.readRest("GET", `/history/structure/sources/${encodeURIComponent(s.Id)}/variables`, undefined, sourceVariablesAnswer)));
  // Built once per set of cached answers (their identities), not on every page that asks.
  const known = sourcesBuilt.get(sources);
  if (known && known.lists.length === lists.length && known.lists.every((l, i) => l === lists[i])) return known.sourceOf;
  const sourceOf = new Map<string, string>();
  sources.forEach((s, i) => {
    for (const v of lists[i]!.Data) if (!sourceOf.has(v.Id)) sourceOf.set(v.Id, s.Id);
  });
  sourcesBuilt.set(sources, { lists, sourceOf });
  return sourceOf;
}
const sourcesBuilt = new WeakMap<object, { lists: object[]; sourceOf: Map<string, string> }>();
/** The online variables with their sources, per cached listing and sources map (read-only for callers). */
const variablesBuilt = new WeakMap<object, { sourceOf: Map<string, string>; variables: Variable[] }>();

/** The contract's selector of a variable's newest data (its source from variableSources). */
export const selector = (v: Pick<Variable, "Id" | "SourceId">) => ({ SID: v.SourceId ?? "", VID: v.Id, Selector: "latest" });

/** The online variables, each with the source the contract's listings put it in. */
export async function onlineVariables(logger: LoggerClient): Promise<Variable[]> {
  const [{ Data }, sourceOf] = await Promise.all([logger.readRest("GET", "/online/structure/variables", undefined, variablesAnswer), variableSources(logger)]);
  const known = variablesBuilt.get(Data);
  if (known?.sourceOf === sourceOf) return known.variables;
  const variables = Data.map((v) => ({ ...v, SourceId: sourceOf.get(v.Id) }));
  variablesBuilt.set(Data, { sourceOf, variables });
  return variables;
}

/**
 * Variables only the store knows (imported recordings, removed devices), from the contract's
 * per-source listings: the history screens read them like any other; "device" is their source.
 */
export async function storedOnlyVariables(logger: LoggerClient, online: ReadonlySet<string>): Promise<VariableRow[]> {
  const { Data: sources } = await logger.readRest("GET", "/history/structure/sources", undefined, sourcesAnswer);
  const lists = await Promise.all(sources.map((s) => logger.readRest("GET", `/history/structure/sources/${encodeURIComponent(s.Id)}/variables`, undefined, sourceVariablesAnswer)));
  const out: VariableRow[] = [];
  sources.forEach((s, i) => {
    for (const v of lists[i]!.Data) {
      if (online.has(v.Id)) continue;
      out.push({ Id: v.Id, Name: v.Name, Unit: v.Unit ?? "", DataFormat: v.DataFormat ?? "FLOAT", Direction: "I", Index: -1, IndexIn: -1, IndexOut: -1, Precision: undefined, SourceId: s.Id, deviceName: s.Name, moduleName: "" });
    }
  });
  return out;
}

/**
 * All variables with the names of their device and module, in the logger's order; with
 * `stored`, those only the store keeps after them (the history screens: Analytics, Export,
 * Measurement Explorer read imported recordings too).
 */
export async function loadVariables(logger: LoggerClient, opts: { stored?: boolean } = {}): Promise<{ variables: VariableRow[]; devices: Device[] }> {
  const [Data, { Devices }] = await Promise.all([onlineVariables(logger), logger.readFreshRpc("DeviceAPI.GetDevices", {}, devicesAnswer)]);
  const owner = new Map<string, { device: string; module: string }>();
  for (const d of Devices) for (const m of d.Modules) for (const id of m.Variables) owner.set(id, { device: d.Name, module: m.Name });
  const variables = Data.map((v) => ({
    ...v,
    deviceName: owner.get(v.Id)?.device ?? Devices.find((d) => d.ID === v.DeviceId)?.Name ?? "",
    moduleName: owner.get(v.Id)?.module ?? "",
  }));
  if (opts.stored) variables.push(...(await storedOnlyVariables(logger, new Set(Data.map((v) => v.Id)))));
  return { variables, devices: Devices };
}

const READ_CHUNK = 500;

/** Current values by variable id (null when the logger has none yet). */
/** maxAgeMs > 0 accepts values read that long ago by the same sign-in (a page render, not a control). */
export async function readValues(logger: LoggerClient, ids: readonly string[], maxAgeMs = 0): Promise<Record<string, number | null>> {
  return (await readStampedValues(logger, ids, maxAgeMs)).values;
}

/**
 * readValues with each value's sample time (epoch ms; null when the logger has none), so a page
 * can tell live from stale values (issue 15 §1). Same requests, so the same cached answers. A
 * variable without a current value (acquisition stopped, device disconnected) keeps its last
 * value with that value's own time, where the logger gives them (`LastValues`): it shows aged and
 * greyed, never blank (issue 26 §3). Without `maxAgeMs` the read is never cached, but its last
 * answer stands in while the logger is away (the client notes that in its `outage`).
 */
export async function readStampedValues(logger: LoggerClient, ids: readonly string[], maxAgeMs = 0): Promise<{ values: Record<string, number | null>; times: Record<string, number | null> }> {
  const values: Record<string, number | null> = {};
  const times: Record<string, number | null> = {};
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    const chunk = ids.slice(i, i + READ_CHUNK);
    const body = { Variables: chunk, Function: "read" };
    const { Data } = await (maxAgeMs > 0 ? logger.readRest("POST", "/online/data", body, onlineValuesAnswer, maxAgeMs) : logger.readFresh("POST", "/online/data", body, onlineValuesAnswer));
    chunk.forEach((id, k) => {
      const current = Data.Values[k] ?? null;
      values[id] = current ?? Data.LastValues?.[k] ?? null;
      // A logger that sends no times leaves its values unjudged rather than all stale.
      if (Data.Timestamps) times[id] = current !== null ? (Data.Timestamps[k] ?? null) : (Data.LastTimestamps?.[k] ?? null);
    });
  }
  return { values, times };
}
