import { data } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { requireAnyFeature } from "~/services/guards.server";
import { env } from "~/services/env.server";
import { isLoggerAway } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { LiveSocketError, subscribeLive, type LiveSample, type LiveSubscription } from "~/services/logger/liveSocket.server";
import type { Route } from "./+types/live";

// Relays the logger's live values to the browser as Server-Sent Events, so tokens stay on the
// server. Upstream is the logger's WebSocket (every logger of the family has one); a logger
// without /ws is read through its SSE stream as before. EventSource reconnects by itself when
// the logger or the network was away, and so after the logger ended the socket for an expired
// token: the reconnect comes through here again, and the guard refreshes the token first (only a
// response can carry the new tokens to the cookie). That reconnect is announced as a `renew`
// event with a short retry, so the page knows it is planned and does not show "Offline" for it.
const ids = z.array(z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/)).min(1).max(256);

/** What the SSE stream pushed at most: one event per 250 ms. */
const INTERVAL_MS = 250;
/**
 * A `beat` event this often, saying whether the logger is heard from: the page tells a silent
 * logger (paused, hung: "logger") from a lost connection (no beats: "network") within 5 s
 * (issue 26 §2). It also keeps proxies from closing an idle stream.
 */
const BEAT_MS = 1_000;
/** How soon a browser tries again when the logger is away at subscription time. */
const AWAY_RETRY_MS = 3_000;
/** How soon the browser comes back after a planned end (the access token ran out upstream). */
const RENEW_RETRY_MS = 250;
/** Events queued for a browser that reads slowly; beyond that an event is skipped (the next one has every value). */
const QUEUED_EVENTS = 16;
const SSE_HEADERS = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" };
const onlineRead = z.object({ Data: z.object({ Values: z.array(z.number().nullable()) }) });

export async function loader(args: Route.LoaderArgs) {
  await requireAnyFeature(args, ["monitor", "variableOverview", "structView", "devices", "dashboard"]);
  const parsed = ids.safeParse((args.url.searchParams.get("variables") ?? "").split(",").filter(Boolean));
  if (!parsed.success) throw data({ reason: "bad-request" }, { status: 400 });
  const variables = parsed.data;
  const { session, logger } = stateOf(args.context);
  const signal = args.request.signal;

  const encoder = new TextEncoder();
  let sub: LiveSubscription | null = null;
  let ended = false;
  let beats: NodeJS.Timeout | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(beats);
    sub?.close();
    try {
      controller.close();
    } catch {
      // Already closed or errored: the browser went away first.
    }
  };
  const write = (text: string, droppable: boolean) => {
    if (ended || (droppable && (controller.desiredSize ?? 1) <= 0)) return;
    controller.enqueue(encoder.encode(text));
  };
  // Frames that arrive in the same read as the first one are handed over before the first is
  // written here: they wait, so the browser gets the retry line, then samples in order.
  let pending: LiveSample[] | null = [];
  const event = (s: LiveSample) => (pending ? pending.push(s) : write(`data: ${JSON.stringify(s)}\n\n`, true));
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      cancel: end,
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED_EVENTS }),
  );

  const open = (token: string) =>
    subscribeLive(
      // The subscription is part of the page's wait: a silent logger is known within the page's deadline.
      { baseUrl: logger.config.baseUrl, token, ids: variables, intervalMs: INTERVAL_MS, timeoutMs: Math.min(logger.config.timeoutMs, env.loggerPageDeadlineMs || logger.config.timeoutMs), signal, clientAuth: logger.clientAuthorization() },
      event,
      // Whatever ended the socket, the browser reconnects and comes back here; for an expired
      // token at once, and the page is told it is a renewal rather than an outage.
      (why) => {
        if (why.auth) write(`event: renew\ndata: token\nretry: ${RENEW_RETRY_MS}\n\n`, false);
        end();
      },
    );
  try {
    try {
      sub = await open(session.get("accessToken") ?? "None");
    } catch (err) {
      if (!(err instanceof LiveSocketError && err.kind === "auth")) throw err;
      // The session's token expired since the guard checked it: any REST call refreshes it, then once more.
      await logger.rest("POST", "/online/data", { Variables: variables, Function: "read" }, onlineRead);
      sub = await open(session.get("accessToken") ?? "None");
    }
  } catch (err) {
    // The logger away (unreachable, silent past the deadline, a 503 upgrade refusal: busy, or its
    // PostgreSQL store away): the browser is told so in the stream's own words and comes back
    // after AWAY_RETRY_MS — not an HTTP error, after which EventSource would give up.
    if ((err instanceof LiveSocketError && (err.kind === "unreachable" || err.status === 503)) || isLoggerAway(err)) {
      return new Response(`retry: ${AWAY_RETRY_MS}\nevent: beat\ndata: {"logger":"away"}\n\n`, { headers: SSE_HEADERS });
    }
    if (!(err instanceof LiveSocketError)) throw err;
    throw new LoggerError(err.status, err.message, err.value);
  }
  if (sub === null) {
    const upstream = await logger.stream(`/online/stream?variables=${variables.map(encodeURIComponent).join(",")}`, "GET", undefined, signal, { asConsole: true });
    return new Response(upstream.body, { headers: SSE_HEADERS });
  }

  write("retry: 2000\n\n", false);
  const early = pending;
  pending = null;
  for (const s of [sub.first, ...early]) event(s);
  const live = sub;
  beats = setInterval(() => write(`event: beat\ndata: {"logger":"${live.silent() ? "silent" : "ok"}"}\n\n`, false), BEAT_MS);
  if (signal.aborted) end();
  else signal.addEventListener("abort", end, { once: true });
  return new Response(body, { headers: SSE_HEADERS });
}
