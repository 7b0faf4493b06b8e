import { RS, RpcError } from "../../http/errors.ts";

// PostgreSQL failing to answer is an outage, not a bug: the request gets 503 (the console shows
// its outage page and tries again) and the pool connects afresh on the next query.

export class StoreUnavailable extends RpcError {
  constructor(cause: unknown) {
    super(503, RS.Busy, `The logger's database is unreachable: ${describe(cause)}`);
    this.cause = cause;
  }
}

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ECONNABORTED"]);
// SQLSTATEs of a server that went away or cannot take the connection now: class 08 (connection
// exception), admin/crash shutdown, starting up, too many connections.
const SERVER_GONE = /^(08|57P0[123]|53300)/;

/** Whether err means the connection or the server is gone (the client is then unusable). */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || SERVER_GONE.test(e.code))) return true;
  return typeof e.message === "string" && /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|not queryable/i.test(e.message);
}

/** Serialization failure or deadlock: the transaction may simply be run again. */
export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
}

/** The error a caller sees: outages as StoreUnavailable (503), everything else unchanged. */
export function storeError(err: unknown): unknown {
  return isConnectionError(err) && !(err instanceof StoreUnavailable) ? new StoreUnavailable(err) : err;
}

export function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] } | null;
  // An AggregateError (every address of a host refused) has an empty message of its own.
  if (e && Array.isArray(e.errors) && e.errors.length && !e.message) return describe(e.errors[0]);
  const msg = typeof e?.message === "string" && e.message ? e.message : String(err);
  return typeof e?.code === "string" && !msg.includes(e.code) ? `${msg} (${e.code})` : msg;
}
