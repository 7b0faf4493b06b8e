import type { BrowseLevel } from "~/ui/dataSources/BrowsePanel";
import type { LoggerClient } from "./logger/client.server";
import { LoggerError } from "./logger/errors";
import { browseAnswer, sourceStatesAnswer, type BrowseNode, type DataSourceView, type SourceState } from "./logger/sourceSchemas";

// Server side of the data-sources screen and Project State's section (decision 0010): reading
// the connection states, browsing an OPC UA server, and a browsed node as a new variable.

/** The browse trail in the URL: `node` and `name` pairs from the Objects folder down. */
export function trailOf(params: URLSearchParams): BrowseLevel["trail"] {
  const ids = params.getAll("node");
  const names = params.getAll("name");
  return ids.slice(0, 32).map((nodeId, i) => ({ nodeId, name: names[i] || nodeId }));
}

/**
 * One level of the server's address space below the trail's last node. A refusal or a failing
 * server is the level's error (shown in the panel), never the page's.
 */
export async function browseLevel(logger: LoggerClient, source: DataSourceView, params: URLSearchParams): Promise<BrowseLevel> {
  const trail = trailOf(params);
  try {
    const { Nodes } = await logger.rpc("DataSourceAPI.Browse", { ID: source.ID, NodeId: trail.at(-1)?.nodeId ?? "" }, browseAnswer);
    return { trail, nodes: Nodes, error: null };
  } catch (error) {
    if (error instanceof LoggerError && error.status !== 401) return { trail, nodes: [], error: { text: error.message, problem: error.problem } };
    throw error;
  }
}

/**
 * Connection states for Project State: every signed-in user may read them. A logger without
 * data sources (an external one, or older) answers 404 for the method: then there are none.
 */
export async function sourceStates(logger: LoggerClient): Promise<SourceState[]> {
  try {
    return (await logger.readFreshRpc("DataSourceAPI.GetState", {}, sourceStatesAnswer)).States;
  } catch (error) {
    if (error instanceof LoggerError && error.status === 404) return [];
    throw error;
  }
}

/** The stored source as `Set` takes it: no Password (keeps the stored one), no view-only fields. */
export function inputOf(source: DataSourceView): Record<string, unknown> {
  const { DeviceId: _device, ...rest } = source;
  const { HasPassword: _has, ...connection } = source.Connection as typeof source.Connection & { HasPassword?: boolean };
  return { ...rest, Connection: connection };
}

const MAX_NAME = 64;

/** A variable of the node: its display name (made unique in the source), unit and range where the node states them. */
export function variableOfNode(source: DataSourceView, node: BrowseNode) {
  const taken = new Set(source.Variables.map((v) => v.Name.toLowerCase()));
  const base = (node.DisplayName.trim() || node.NodeId).replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, MAX_NAME) || "Variable";
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)} ${n}`;
  const ranged = node.RangeMin !== undefined && node.RangeMax !== undefined && Number.isFinite(node.RangeMin) && Number.isFinite(node.RangeMax) && node.RangeMax > node.RangeMin;
  return {
    VariableId: "",
    Name: name,
    Unit: (node.Unit ?? "").trim().slice(0, 16),
    RangeMin: ranged ? node.RangeMin! : 0,
    RangeMax: ranged ? node.RangeMax! : 100,
    Precision: 2,
    Direction: node.Writable ? ("IO" as const) : ("I" as const),
    Address: { NodeId: node.NodeId },
  };
}
