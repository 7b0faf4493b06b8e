import type { IncomingMessage } from "node:http";
import type { OAuthClients } from "../../auth/clients.ts";
import { checkClient, isConfidentialClient, parseBasicAuth } from "../../auth/clients.ts";

// How many live connections (/ws and /online/stream) the logger keeps open, per user and in all
// (issue 24 §4). One Viewer token (the public gibench client hands one out) once opened all 100
// and switched live data off for everyone, the console's relay included. Now:
// * the public: at most PUBLIC_MAX of each kind, and PER_USER per user over both kinds;
// * the console's relay (requests bearing the console's client credentials in
//   X-Client-Authorization): a reserve of its own, CONSOLE_MAX of each kind and CONSOLE_PER_USER
//   per user, that nobody else can take. The console shares a socket among the browser streams of
//   one sign-in, so a wall of displays signed in as one account takes a socket per display: 16 per
//   user left the 17th display of one account without live values (bench/soak.ts, 20 kiosks:
//   120 dropped streams). A user may take a quarter of the reserve.

export type LiveKind = "ws" | "sse";

export type LiveLimits = {
  /** Connections of one user (token's user; without login: client address) over /ws and /online/stream. */
  perUser: number;
  /** Connections of each kind that are not the console's. */
  publicMax: number;
  /** The console relay's reserve, per kind, and per user (a relay socket per sign-in, carrying up to 32 of its browser streams). */
  consoleMax: number;
  consolePerUser: number;
};

export const LIVE_LIMITS: LiveLimits = { perUser: 8, publicMax: 100, consoleMax: 400, consolePerUser: 100 };

/** The header a confidential client (the console) proves itself with on a live connection. */
export const CLIENT_AUTH_HEADER = "x-client-authorization";

/** Whether the request carries a confidential client's valid credentials (`Basic base64(id:secret)`). */
export function fromConsole(req: IncomingMessage, clients: OAuthClients): boolean {
  const raw = req.headers[CLIENT_AUTH_HEADER];
  const basic = parseBasicAuth(Array.isArray(raw) ? raw[0] : raw);
  return basic !== null && isConfidentialClient(clients, basic.id) && checkClient(clients, basic.id, basic.secret);
}

/** A live connection's place: `user(key)` counts it for its user once the token is known. */
export type LivePlace = { user(key: string): boolean; release(): void };

export class LiveCaps {
  readonly limits: LiveLimits;
  private readonly open = new Map<string, number>();
  private readonly users = new Map<string, number>();

  constructor(limits: Partial<LiveLimits> = {}) {
    this.limits = { ...LIVE_LIMITS, ...limits };
  }

  /** A place among the connections of this kind (the console's reserve or the public's); null when they are full. */
  place(kind: LiveKind, relay: boolean): LivePlace | null {
    const pool = `${relay ? "console" : "public"}:${kind}`;
    if ((this.open.get(pool) ?? 0) >= (relay ? this.limits.consoleMax : this.limits.publicMax)) return null;
    bump(this.open, pool, 1);
    let userKey: string | null = null;
    let released = false;
    return {
      user: (key) => {
        const k = `${relay ? "console" : "public"}:${key}`;
        if ((this.users.get(k) ?? 0) >= (relay ? this.limits.consolePerUser : this.limits.perUser)) return false;
        bump(this.users, k, 1);
        userKey = k;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        bump(this.open, pool, -1);
        if (userKey) bump(this.users, userKey, -1);
      },
    };
  }

  /** The largest number of connections one user may hold of the pool the connection is in. */
  perUserOf(relay: boolean): number {
    return relay ? this.limits.consolePerUser : this.limits.perUser;
  }

  maxOf(relay: boolean): number {
    return relay ? this.limits.consoleMax : this.limits.publicMax;
  }
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n > 0) m.set(key, n);
  else m.delete(key);
}

/** Whose connection this is, for the per-user count: the user, else (no login) the client's address. */
export function liveKey(userId: number | null, req: IncomingMessage): string {
  return userId !== null ? `user:${userId}` : `addr:${req.socket.remoteAddress ?? "?"}`;
}
