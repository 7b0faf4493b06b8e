import { data } from "react-router";
import type { BrowseLevel } from "~/ui/dataSources/BrowsePanel";
import { checkDraft, rowOfNode, type Draft, type Errors } from "~/ui/dataSources/draft";
import { stateOf } from "./context.server";
import { dropSecret, keepSecret, keptSecret } from "./dataSources.pending.server";
import type { LoggerClient } from "./logger/client.server";
import { LoggerError } from "./logger/errors";
import { browseAnswer } from "./logger/sourceSchemas";
import type { RouterContextProvider } from "react-router";

// The data-source form's round trips that are not a save (decision 0010, "Passwords typed before
// saving" and "Browsing before saving"): the password typed is kept server-side under a token
// the form carries (never echoed into the HTML), and an OPC UA server is browsed with the
// connection as typed, its nodes added to the form as rows.

export const BROWSE_INTENT = /^browse(Open:.{1,2000}|Add:.{1,4000}|To:\d{1,2}|Close)?$/;

export type FormReply = { id: number | null; draft: Draft; errors: Errors; nonce: string; pending: string | null; browse: BrowseLevel | null };

/** The password of this post: typed now, else typed before and kept (unless "remove the stored password" is ticked). */
export function passwordOf(context: Readonly<RouterContextProvider>, formData: FormData) {
  const owner = String(stateOf(context).session.get("sid") ?? "");
  const typed = String(formData.get("Connection.Password") ?? "");
  const clear = formData.get("Connection.ClearPassword") === "on";
  const token = formData.get("Connection.PendingPassword");
  const before = clear ? undefined : keptSecret(owner, typeof token === "string" ? token : null);
  return {
    typed: typed !== "" ? typed : (before ?? ""),
    clear,
    /** The token to carry on in the form: the typed password kept (a new token when typed anew). */
    keep: (): string | null => (typed !== "" ? keepSecret(owner, typed) : before !== undefined ? (token as string) : null),
    /** After a save: nothing more to keep. */
    done: () => dropSecret(typeof token === "string" ? token : null),
  };
}

function trailOf(formData: FormData): BrowseLevel["trail"] {
  const ids = formData.getAll("browse.node").map(String);
  const names = formData.getAll("browse.name").map(String);
  return ids.slice(0, 32).map((nodeId, i) => ({ nodeId, name: names[i] || nodeId }));
}

function parsed(intent: string, prefix: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(intent.slice(prefix.length));
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown) => (typeof v === "string" ? v.slice(0, 512) : "");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * A browse step of the form: the trail it leads to and the draft (plus a row for "Add"), or null
 * when the form closes the browser. Bad intents are a 400.
 */
export function browseStep(intent: string, formData: FormData, draft: Draft): { trail: BrowseLevel["trail"]; draft: Draft } | null {
  const trail = trailOf(formData);
  if (intent === "browseClose") return null;
  if (intent === "browse") return { trail: [], draft };
  if (intent.startsWith("browseTo:")) return { trail: trail.slice(0, Number(intent.slice("browseTo:".length))), draft };
  if (intent.startsWith("browseOpen:")) {
    const step = parsed(intent, "browseOpen:");
    if (!step || !str(step.nodeId)) throw data({ reason: "bad-request" }, { status: 400 });
    return { trail: [...trail, { nodeId: str(step.nodeId), name: str(step.name) || str(step.nodeId) }].slice(0, 32), draft };
  }
  const node = parsed(intent, "browseAdd:");
  if (!node || !str(node.NodeId)) throw data({ reason: "bad-request" }, { status: 400 });
  if (draft.variables.some((v) => v["Address.NodeId"] === str(node.NodeId))) return { trail, draft };
  const row = rowOfNode(draft, { NodeId: str(node.NodeId), DisplayName: str(node.DisplayName), Unit: str(node.Unit), RangeMin: num(node.RangeMin), RangeMax: num(node.RangeMax), Writable: node.Writable === true });
  return { trail, draft: { ...draft, variables: [...draft.variables, row] } };
}

/**
 * One level of the server as typed in the form. The connection is checked as a save would check
 * it (its errors come back next to its fields); an editing form without a retyped password lets
 * the logger use the stored one (same endpoint and user only, see DataSourceAPI.Browse).
 */
export async function browseDraft(
  logger: LoggerClient,
  draft: Draft,
  password: { typed: string; clear: boolean },
  id: number | null,
  trail: BrowseLevel["trail"],
): Promise<{ level: BrowseLevel | null; errors: Errors }> {
  // Only the connection matters here: name, period and rows may still be unfinished.
  const { payload, errors } = checkDraft({ ...draft, values: { ...draft.values, Name: "browse", PeriodMs: "1000" }, variables: [] }, password, id);
  if (!payload) return { level: null, errors };
  const params = { Connection: payload.Connection, NodeId: trail.at(-1)?.nodeId ?? "", ...(id === null ? {} : { ID: id }) };
  try {
    const { Nodes, ServerFingerprint } = await logger.rpc("DataSourceAPI.Browse", params, browseAnswer);
    return { level: { trail, nodes: Nodes, error: null, fingerprint: ServerFingerprint ?? null }, errors: {} };
  } catch (error) {
    if (error instanceof LoggerError && error.status !== 401 && error.status !== 403) return { level: { trail, nodes: [], error: { text: error.message, problem: error.problem } }, errors: {} };
    throw error;
  }
}
