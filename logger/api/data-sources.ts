import { z } from "zod";
import { describeZodError, invalidParam, notFound, RpcError, RS } from "../http/errors.ts";
import { DataSourceInput, OpcuaConnection, deviceIdOf, viewOf } from "../sources/config.ts";
import type { BrowseNode, DataSource, OpcuaConnection as OpcuaConnectionType } from "../sources/config.ts";
import { problemOf } from "../sources/problems.ts";
import type { ProblemArgs } from "../sources/problems.ts";
import { deleteSource, loadSource, loadSources, saveSource, sourceNameTaken } from "../sources/stored.ts";
import type { Db } from "../store/db.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { id } from "./schemas.ts";

// DataSourceAPI (decision 0010, docs/logger-api.md "Data sources"): MQTT, Modbus TCP and OPC UA
// devices configured by a user with ManageProject. Passwords are write-only, like VNC's: the
// answers say HasPassword, and neither the audit text nor the trace log ever holds one.

// The console's payloads carry up to 1000 variables with their addresses.
const MAX_BODY = 1024 * 1024;

// Validated by hand (not as the method's params) so a 400 names the field inside Source.
const SetParams = z.object({ Source: z.unknown() });

/** The OPC UA browse function of logger/sources/opcua.ts, loaded on first use (see browse()). */
type BrowseFn = (connection: OpcuaConnectionType & { Password?: string }, nodeId: string) => Promise<{ nodes: BrowseNode[]; fingerprint: string | null }>;

/** A refusal with its stable code and arguments beside the English text (decision 0010, "Connection problems"). */
const refusal = (status: number, value: number, text: string, Code: string, Args: ProblemArgs) => new RpcError(status, value, text, {}, { Problem: { Code, Args } });

async function stored(db: Db, id: number): Promise<DataSource> {
  const s = await loadSource(db, id);
  if (!s) throw notFound(`Data source ${id} not found`);
  return s;
}

/** What changed, for the audit text: field names only, never a value that could be a secret. */
function changes(before: DataSource, after: DataSource, passwordSet: boolean): string {
  const out: string[] = [];
  if (before.Name !== after.Name) out.push(`renamed from ${before.Name}`);
  if (before.Enabled !== after.Enabled) out.push(after.Enabled ? "enabled" : "disabled");
  if (before.PeriodMs !== after.PeriodMs) out.push(`period ${before.PeriodMs} ms → ${after.PeriodMs} ms`);
  const { Password: _a, ...c1 } = before.Connection as { Password?: string };
  const { Password: _b, ...c2 } = after.Connection as { Password?: string };
  if (JSON.stringify(c1) !== JSON.stringify(c2)) out.push("connection");
  if (passwordSet) out.push("password");
  const ids1 = new Set(before.Variables.map((v) => v.VariableId));
  const ids2 = new Set(after.Variables.map((v) => v.VariableId));
  const added = after.Variables.filter((v) => !ids1.has(v.VariableId)).length;
  const removed = before.Variables.filter((v) => !ids2.has(v.VariableId)).length;
  const edited = after.Variables.filter((v) => {
    const o = before.Variables.find((x) => x.VariableId === v.VariableId);
    return o && JSON.stringify(o) !== JSON.stringify(v);
  }).length;
  if (added) out.push(`${added} variable${added === 1 ? "" : "s"} added`);
  if (removed) out.push(`${removed} variable${removed === 1 ? "" : "s"} removed`);
  if (edited) out.push(`${edited} variable${edited === 1 ? "" : "s"} changed`);
  return out.length ? out.join(", ") : "nothing";
}

let browseFn: BrowseFn | null = null;
async function browse(connection: Parameters<BrowseFn>[0], nodeId: string): ReturnType<BrowseFn> {
  // Imported when first needed: node-opcua is large, and most loggers never browse.
  browseFn ??= (await import("../sources/opcua.ts")).browseOpcua;
  return browseFn(connection, nodeId);
}

export const dataSourceMethods: Registry = {
  "DataSourceAPI.List": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: async (_p, ctx) => ({ Sources: (await loadSources(ctx.db, (m) => ctx.trace.add("error", "datasource", m))).map(viewOf) }),
  }),

  "DataSourceAPI.Get": method({
    params: z.object({ ID: id }),
    permission: "ManageProject",
    handler: async (p, ctx) => ({ Source: viewOf(await stored(ctx.db, p.ID)) }),
  }),

  "DataSourceAPI.Set": method({
    params: SetParams,
    permission: "ManageProject",
    maxBody: MAX_BODY,
    handler: async (p, ctx) => {
      const parsed = DataSourceInput.safeParse(p.Source);
      if (!parsed.success) throw invalidParam(describeZodError(parsed.error, "Source"));
      const input = parsed.data as DataSource;
      const password = input.Protocol === "modbus" ? undefined : input.Connection.Password;
      const saved = await ctx.db.tx(async (q) => {
        const before = input.ID > 0 ? await stored(q, input.ID) : null;
        if (before && before.Protocol !== input.Protocol) {
          throw invalidParam(`Invalid parameter Source.Protocol: data source ${before.Name} is ${before.Protocol}; its protocol cannot change (add a new source instead)`);
        }
        if (await sourceNameTaken(q, input.Name, before?.ID ?? -1)) {
          throw refusal(400, RS.InvalidOperation, `Invalid parameter Source.Name: another data source is already called ${input.Name}`, "sourceNameTaken", { name: input.Name });
        }
        const clash = ctx.data.model.devices.find((d) => d.Name.toLowerCase() === input.Name.toLowerCase() && d.ID !== (before ? deviceIdOf(before.ID) : ""));
        if (clash) throw refusal(400, RS.InvalidOperation, `Invalid parameter Source.Name: device ${clash.Name} already has this name`, "deviceNameTaken", { name: clash.Name });
        const known = new Set(before?.Variables.map((v) => v.VariableId) ?? []);
        input.Variables.forEach((v, i) => {
          if (v.VariableId !== "" && !known.has(v.VariableId)) {
            throw invalidParam(`Invalid parameter Source.Variables.${i}.VariableId: ${v.VariableId} is not a variable of this data source (use "" for a new one)`);
          }
        });
        const seen = new Set<string>();
        input.Variables.forEach((v, i) => {
          if (v.VariableId === "") return;
          if (seen.has(v.VariableId)) throw invalidParam(`Invalid parameter Source.Variables.${i}.VariableId: ${v.VariableId} is given twice`);
          seen.add(v.VariableId);
        });
        const s = await saveSource(q, { ...input, ID: before?.ID ?? -1 } as DataSource, password);
        await ctx.audit(before ? `Changed data source ${s.Name}: ${changes(before, s, password !== undefined)}` : `Added data source ${s.Name} (${s.Protocol}, ${s.Variables.length} variable${s.Variables.length === 1 ? "" : "s"})`, q);
        return s;
      });
      await ctx.data.sources.update(saved);
      return { Source: viewOf(saved) };
    },
  }),

  "DataSourceAPI.Delete": method({
    params: z.object({ ID: id }),
    permission: "ManageProject",
    handler: async (p, ctx) => {
      const s = await ctx.db.tx(async (q) => {
        const s = await stored(q, p.ID);
        await deleteSource(q, s.ID);
        await ctx.audit(`Deleted data source ${s.Name} (its history stays)`, q);
        return s;
      });
      await ctx.data.sources.remove(s.ID);
      return {};
    },
  }),

  "DataSourceAPI.Browse": method({
    params: z.object({
      ID: id.optional(),
      Connection: z.unknown().optional(),
      NodeId: z.string().max(512).default(""),
    }),
    permission: "ManageProject",
    handler: async (p, ctx) => {
      let connection: Parameters<BrowseFn>[0];
      if (p.Connection !== undefined) {
        const c = OpcuaConnection.safeParse(p.Connection);
        if (!c.success) throw invalidParam(describeZodError(c.error, "Connection"));
        connection = c.data;
        // A connection being edited without retyping its password: the stored one of ID, but only
        // to the same server and user (never handed to an endpoint the caller just typed).
        if (connection.Password === undefined && p.ID !== undefined) {
          const s = await stored(ctx.db, p.ID);
          if (s.Protocol === "opcua" && s.Connection.Endpoint === connection.Endpoint && s.Connection.Username === connection.Username) {
            connection = { ...connection, Password: s.Connection.Password };
          }
        }
      } else if (p.ID !== undefined) {
        const s = await stored(ctx.db, p.ID);
        if (s.Protocol !== "opcua") throw invalidParam(`Invalid parameter ID: data source ${s.Name} is ${s.Protocol}; only OPC UA servers can be browsed`);
        connection = s.Connection;
      } else {
        throw invalidParam("Invalid parameters: give ID (a stored OPC UA source) or Connection");
      }
      try {
        const { nodes, fingerprint } = await browse(connection, p.NodeId);
        // The certificate seen, for the operator to check and require (decision 0010, "Server certificates").
        return { Nodes: nodes, ServerFingerprint: fingerprint };
      } catch (err) {
        if (err instanceof RpcError) throw err;
        // The server's answer (unreachable, refused, unknown node) as a readable error, not a 500.
        const problem = problemOf((err as Error).message);
        throw refusal(400, RS.InvalidOperation, `Browsing ${connection.Endpoint} failed: ${(err as Error).message}`, problem.Code, problem.Args);
      }
    },
  }),

  "DataSourceAPI.GetState": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => ({ States: ctx.data.sources.states() }),
  }),
};

