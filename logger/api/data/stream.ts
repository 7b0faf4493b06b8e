import type { ServerResponse } from "node:http";
import type { LiveValues } from "../../model/live.ts";
import { findVariable } from "../../model/context.ts";
import { RpcError, invalidParam, notFound } from "../../http/errors.ts";
import type { RestRoute } from "../../http/rest.ts";
import { LIVE_LIMITS, fromConsole, liveKey } from "./live-caps.ts";
import { f32 } from "../../store/series/query.ts";

/** Streams that are not the console relay's (live-caps.ts: per user, and the console's reserve). */
export const MAX_STREAMS = LIVE_LIMITS.publicMax;
/** Retry-After of a stream refused for its user's cap. */
const USER_CAP_RETRY_SEC = 10;
const PUSH_MS = 250;
const KEEPALIVE_MS = 15_000;

type Client = { res: ServerResponse; ids: string[]; version: number; lastWrite: number };

/** Server-Sent Events of live values: one timer for all clients, at most one event per 250 ms each. */
export class StreamHub {
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;
  private readonly live: LiveValues;
  private readonly now: () => number;

  constructor(live: LiveValues, now: () => number = Date.now) {
    this.live = live;
    this.now = now;
  }

  get size(): number {
    return this.clients.size;
  }

  add(res: ServerResponse, ids: string[]): void {
    const client: Client = { res, ids, version: -1, lastWrite: this.now() };
    this.clients.add(client);
    res.on("close", () => this.remove(client));
    this.push(client);
    this.timer ??= setInterval(() => this.tick(), PUSH_MS);
  }

  private remove(c: Client): void {
    this.clients.delete(c);
    if (this.clients.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    const now = this.now();
    for (const c of this.clients) {
      if (c.version !== this.live.version) this.push(c);
      else if (now - c.lastWrite >= KEEPALIVE_MS) this.write(c, ": keepalive\n\n");
    }
  }

  private push(c: Client): void {
    c.version = this.live.version;
    const values: Record<string, number | null> = {};
    for (const id of c.ids) {
      const v = this.live.get(id)?.v;
      values[id] = v === undefined || v === null ? null : f32(v);
    }
    this.write(c, `data: ${JSON.stringify({ t: this.live.updated || this.now(), values })}\n\n`);
  }

  private write(c: Client, text: string): void {
    c.lastWrite = this.now();
    // A client that does not read is dropped rather than buffered without bound.
    if (!c.res.write(text) && c.res.writableLength > 1_000_000) c.res.destroy();
  }

  closeAll(): void {
    for (const c of [...this.clients]) c.res.end();
    this.clients.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export const streamRoutes: RestRoute[] = [
  {
    method: "GET",
    pattern: /^\/online\/stream$/,
    handler: ({ req, res, ctx, url, caller }) => {
      const ids = (url.searchParams.get("variables") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
      if (ids.length === 0) throw invalidParam("Invalid parameter variables: give one or more variable IDs, comma separated");
      if (ids.length > 1000) throw invalidParam("Invalid parameter variables: at most 1000");
      for (const id of ids) if (!findVariable(ctx.data, id)) throw notFound(`Unknown variable ${id}`);
      const hub = ctx.data.streams;
      const relay = fromConsole(req, ctx.clients);
      const caps = ctx.data.liveCaps;
      const place = caps.place("sse", relay);
      if (!place) throw new RpcError(503, -12, `Too many live streams (${caps.maxOf(relay)}); try again later`);
      if (!place.user(liveKey(caller.userId, req))) {
        place.release();
        throw new RpcError(429, -12, `Too many live connections for one user (${caps.perUserOf(relay)}); close one first`, { "Retry-After": String(USER_CAP_RETRY_SEC) });
      }
      res.once("close", () => place.release());
      res.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      });
      res.write("retry: 2000\n\n");
      hub.add(res, ids);
    },
  },
];
