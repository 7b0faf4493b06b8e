import { AccessLevelFlag, AttributeIds, BrowseDirection, DataTypeIds, NodeClass, NodeClassMask, ObjectIds, ReferenceTypeIds, resolveNodeId } from "node-opcua-client";
import type { BrowseDescriptionLike, ClientSession, NodeId, ReadValueIdOptions, ReferenceDescription } from "node-opcua-client";
import type { BrowseNode, OpcuaConnection } from "./config.ts";
import { within } from "./driver.ts";
import { makeClient, OpcuaError, openSession, serverFingerprint } from "./opcua-connect.ts";

// DataSourceAPI.Browse for OPC UA: one level of the address space under a node ("" = the Objects
// folder), with what the console's picker needs to fill a variable in: display name, node class,
// whether there is more below, and for variables the data type, engineering unit, EURange and
// whether the user may write it. A short-lived connection, bounded by BROWSE_TIMEOUT_MS.

export const BROWSE_TIMEOUT_MS = 10_000;
const CHUNK = 100;

const DATA_TYPE_NAMES = new Map<number, string>(Object.entries(DataTypeIds).map(([name, id]) => [id as number, name]));

const isProperty = (r: ReferenceDescription) => r.referenceTypeId.namespace === 0 && r.referenceTypeId.value === ReferenceTypeIds.HasProperty;

const describe = (nodeId: NodeId): BrowseDescriptionLike => ({
  nodeId,
  browseDirection: BrowseDirection.Forward,
  referenceTypeId: resolveNodeId(ReferenceTypeIds.HierarchicalReferences),
  includeSubtypes: true,
  nodeClassMask: NodeClassMask.Object | NodeClassMask.Variable,
  resultMask: 63,
});

function chunks<T>(xs: T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Every reference of each node (following continuation points). */
async function browseAll(session: ClientSession, nodes: NodeId[]): Promise<ReferenceDescription[][]> {
  const out: ReferenceDescription[][] = [];
  for (const part of chunks(nodes)) {
    const results = await session.browse(part.map(describe));
    for (const [k, r] of results.entries()) {
      if (r.statusCode.isBad()) throw new OpcuaError(`Cannot browse ${part[k]!.toString()}: ${r.statusCode.name}`);
      const refs = [...(r.references ?? [])];
      let cp = r.continuationPoint;
      while (cp && cp.length) {
        const next = await session.browseNext(cp, false);
        refs.push(...(next.references ?? []));
        cp = next.continuationPoint;
      }
      out.push(refs);
    }
  }
  return out;
}

async function readAll(session: ClientSession, ids: ReadValueIdOptions[]) {
  const out = [];
  for (const part of chunks(ids, 500)) out.push(...(await session.read(part)));
  return out;
}

const nodeClassName = (c: NodeClass) => (NodeClass[c] ?? "Unspecified") as BrowseNode["NodeClass"];

/** One level of the address space under `nodeId` ("" = Objects folder). Rejects with a readable Error. */
export async function browseOpcua(connection: OpcuaConnection & { Password?: string }, nodeId: string): Promise<{ nodes: BrowseNode[]; fingerprint: string | null }> {
  let parent: NodeId;
  try {
    parent = resolveNodeId(nodeId.trim() === "" ? ObjectIds.ObjectsFolder : nodeId.trim());
  } catch {
    throw new OpcuaError(`NodeId ${nodeId} is not valid (expected e.g. ns=1;s=Temperature or i=85)`);
  }
  const started = Date.now();
  const left = () => Math.max(1000, BROWSE_TIMEOUT_MS - (Date.now() - started));
  const client = makeClient(connection);
  try {
    const session = await openSession(client, connection, BROWSE_TIMEOUT_MS);
    const nodes = await within(browseUnder(session, parent), left(), `Browsing ${connection.Endpoint} took longer than ${BROWSE_TIMEOUT_MS / 1000} s`);
    return { nodes, fingerprint: serverFingerprint(client) };
  } finally {
    await within(client.disconnect(), 3000, "disconnect").catch(() => {});
  }
}

async function browseUnder(session: ClientSession, parent: NodeId): Promise<BrowseNode[]> {
  const [own] = await browseAll(session, [parent]);
  const seen = new Set<string>();
  const children = (own ?? []).filter((r) => {
    const key = r.nodeId.toString();
    if (isProperty(r) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const below = await browseAll(
    session,
    children.map((r) => resolveNodeId(r.nodeId.toString())),
  );
  const nodes: BrowseNode[] = children.map((r, i) => ({
    NodeId: r.nodeId.toString(),
    DisplayName: r.displayName?.text || r.browseName?.name || r.nodeId.toString(),
    NodeClass: nodeClassName(r.nodeClass),
    HasChildren: below[i]!.some((c) => !isProperty(c)),
  }));

  // variables: data type, write access, and the EngineeringUnits / EURange properties if present
  const reads: ReadValueIdOptions[] = [];
  const apply: ((value: unknown) => void)[] = [];
  children.forEach((r, i) => {
    if (r.nodeClass !== NodeClass.Variable) return;
    const node = nodes[i]!;
    const id = resolveNodeId(r.nodeId.toString());
    reads.push({ nodeId: id, attributeId: AttributeIds.DataType });
    apply.push((v) => {
      const t = v as NodeId | null;
      if (t) node.DataType = t.namespace === 0 && typeof t.value === "number" ? (DATA_TYPE_NAMES.get(t.value) ?? t.toString()) : t.toString();
    });
    reads.push({ nodeId: id, attributeId: AttributeIds.UserAccessLevel });
    apply.push((v) => {
      if (typeof v === "number") node.Writable = (v & AccessLevelFlag.CurrentWrite) !== 0;
    });
    for (const p of below[i]!.filter(isProperty)) {
      const name = p.browseName?.name;
      if (name !== "EngineeringUnits" && name !== "EURange") continue;
      reads.push({ nodeId: resolveNodeId(p.nodeId.toString()), attributeId: AttributeIds.Value });
      apply.push((v) => {
        const x = v as { displayName?: { text?: string | null }; description?: { text?: string | null }; low?: number; high?: number } | null;
        if (!x) return;
        if (name === "EngineeringUnits") {
          const unit = x.displayName?.text || x.description?.text;
          if (unit) node.Unit = unit;
        } else if (Number.isFinite(x.low) && Number.isFinite(x.high)) {
          node.RangeMin = x.low;
          node.RangeMax = x.high;
        }
      });
    }
  });
  const values = await readAll(session, reads);
  values.forEach((dv, k) => {
    if (dv.statusCode.isGood()) apply[k]!(dv.value?.value ?? null);
  });
  return nodes;
}
