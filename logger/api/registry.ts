import type { z } from "zod";
import type { OAuthClients } from "../auth/clients.ts";
import type { PermissionName } from "../auth/permissions.ts";
import type { SignInThrottle } from "../auth/throttle.ts";
import type { TokenTtl } from "../auth/tokens.ts";
import type { AlarmEngine } from "../alarms/engine.ts";
import type { Notifier } from "../alarms/notifier.ts";
import type { DataContext } from "../model/context.ts";
import type { TraceLog } from "../trace.ts";
import type { FileRoot } from "../files/paths.ts";
import type { Db } from "../store/db.ts";
import type { CanBus } from "../can/bus.ts";
import type { DeviceTokens } from "../auth/device-tokens.ts";
import type { SitePolicy } from "../http/origin.ts";

// userId null = the anonymous caller of a logger that does not require login (holds every permission).
export type Caller = { userId: number | null; username: string; permissions: ReadonlySet<string> };

export type Access = "public" | null | PermissionName | readonly PermissionName[];

export type LoggerContext = {
  db: Db;
  controller: boolean;
  clients: OAuthClients;
  ttl: TokenTtl;
  data: DataContext;
  alarms: AlarmEngine;
  notifier: Notifier;
  trace: TraceLog;
  /** DATA_DIR: the logger's local files (import spool, traces…) on either engine. */
  dataDir: string;
  /** The file browser's data root. */
  files: FileRoot;
  /** The CAN scanner (simulated bus or capture, DBC, signals as variables). */
  can: CanBus;
  /** Failed password checks per account and client address (logger/auth/throttle.ts). */
  throttle: SignInThrottle;
  /** Signed proofs of an earlier sign-in on a device, exempt from the account's budget (logger/auth/device-tokens.ts). */
  deviceTokens: DeviceTokens;
  /** Which pages may send requests and which names the logger answers to (logger/http/origin.ts). */
  site: SitePolicy;
};

export type CallContext = LoggerContext & {
  caller: Caller | null;
  /** Caller of a method whose access is not "public": always present there. */
  me: Caller;
  /**
   * Writes an audit message as the caller; inside a tx pass its q. Await it: a failure is also
   * logged to the trace, so a caller that does not await never crashes the logger.
   */
  audit: (text: string, q?: Db) => Promise<void>;
  /** The TCP peer's address, as a throttle key (RPC never trusts X-Forwarded-For). */
  clientAddress: string;
};

export type RpcMethod = {
  params: z.ZodType;
  // A function when the needed permission depends on the call (own user, public file prefix…).
  permission: Access | ((params: never, caller: Caller | null) => Access);
  maxBody?: number;
  /** Callable with the token of a user who must change the password first (only ChangePassword). */
  duringPasswordChange?: boolean;
  handler: (params: never, ctx: CallContext) => object | Promise<object>;
};

export function method<S extends z.ZodType>(m: {
  params: S;
  permission: Access | ((params: z.output<S>, caller: Caller | null) => Access);
  maxBody?: number;
  duringPasswordChange?: boolean;
  handler: (params: z.output<S>, ctx: CallContext) => object | Promise<object>;
}): RpcMethod {
  return m as RpcMethod;
}

export type Registry = Record<string, RpcMethod>;
