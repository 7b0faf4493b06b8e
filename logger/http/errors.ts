import type { ZodError } from "zod";

export const RS = {
  OK: 0,
  InvalidOperation: -3,
  NotFound: -4,
  Internal: -5,
  InvalidParameter: -6,
  Busy: -12,
  Password: -14,
  Timeout: -16,
} as const;

// Thrown anywhere below the router; the router turns it into status + ReturnState.
export class RpcError extends Error {
  readonly status: number;
  readonly value: number;
  /** Extra response headers (Retry-After of a 429). */
  readonly headers: Record<string, string>;
  /** Fields sent beside ReturnState (a data source's Problem: a stable code and its arguments). */
  readonly extra: Record<string, unknown>;
  /**
   * A stable code for the refusal and the values its text names, sent in ReturnState as `Code`
   * and `Args` so a client can say it in its reader's language; the Description stays the
   * English fallback (docs/logger-api.md, "Refusal codes").
   */
  code?: RefusalCode;
  args?: Record<string, string | number>;
  constructor(status: number, value: number, description: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
    super(description);
    this.status = status;
    this.value = value;
    this.headers = headers;
    this.extra = extra;
  }

  /** The same error with its refusal code and arguments. */
  coded(code: RefusalCode, args: Record<string, string | number> = {}): this {
    this.code = code;
    this.args = args;
    return this;
  }
}

/** Every refusal code the logger sends (the console translates each; a test checks they all have a text). */
export const REFUSAL_CODES = [
  "stale",
  "usernameTaken",
  "roleMissing",
  "lastAdmin",
  "ownAccount",
  "noSignedInUser",
  "roleNameTaken",
  "builtInRename",
  "builtInPermissions",
  "builtInRemove",
  "roleHeld",
  "ruleNameTaken",
  "notAwaitingAck",
  "noneAwaitingAck",
  "outOfService",
  "notShelved",
  "targetNameTaken",
  "targetInUse",
  "vncNameTaken",
  "settingKeyTaken",
  "measurementRunning",
  "projectNotRunning",
  "noMeasurementRunning",
  "nothingToAcquire",
  "measurementStillRunning",
  "fileExists",
  "annotationNotAuthor",
  "annotationNotAllowed",
  "versionNotKept",
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export const unauthorized = (d = "Authentication required") => new RpcError(401, RS.InvalidOperation, d);
export const forbidden = (d: string) => new RpcError(403, RS.InvalidOperation, d);
export const notFound = (d: string) => new RpcError(404, RS.NotFound, d);
export const refused = (d: string) => new RpcError(400, RS.InvalidOperation, d);
export const invalidParam = (d: string) => new RpcError(400, RS.InvalidParameter, d);
export const passwordError = (d: string, status = 400) => new RpcError(status, RS.Password, d);
export const conflict = (d: string) => new RpcError(409, RS.InvalidOperation, d);
/** A password check refused by the sign-in throttle: 429 with Retry-After, never hashed. */
export const throttled = (retryAfterSec: number) =>
  new RpcError(429, RS.Busy, `Too many failed sign-ins; try again in ${retryAfterSec} s`, { "Retry-After": String(retryAfterSec) });

export function describeZodError(err: ZodError, prefix = ""): string {
  return err.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
      return path ? `Invalid parameter ${path}: ${issue.message}` : `Invalid parameters: ${issue.message}`;
    })
    .join("; ");
}
