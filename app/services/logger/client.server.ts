import { createHash } from "node:crypto";
import { data } from "react-router";
import type { z } from "zod";
import { cachedAnswer, sharedRevision } from "./cache.server";
import { LoggerError, errorText, problemIn, refusalIn, retryAfterOf, type RefusalTexts } from "./errors";
import { keepAnswer, keptAnswer } from "./kept.server";
import { oauthError, tokenPair, verifyAnswer, type TokenPair, type VerifyAnswer } from "./schemas";

export interface LoggerConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

/** Where a client keeps the caller's token pair (the cookie session, in the app). */
export interface TokenStore {
  get(): { accessToken?: string; refreshToken?: string };
  set(pair: TokenPair | null): void;
}

export class InvalidCredentials extends Error {}

/** The logger's sign-in throttle refused the attempt (429): try again after this many seconds. */
export class SignInThrottled extends Error {
  readonly retryAfterSec: number;
  constructor(retryAfterSec: number) {
    super(`Sign-in refused for ${retryAfterSec} s`);
    this.retryAfterSec = retryAfterSec;
  }
}

/**
 * How long after a refresh its answer is handed to the same session's other requests (those the
 * browser sent with the old cookie before the new one arrived). Past that, or from another
 * session, the old refresh token goes to the logger, which takes it for a stolen copy and ends
 * the sign-in (reuse detection). The same session's refresh on another console replica (no
 * shared memory) is told apart by its session binding: the logger repeats its answer then.
 */
export const REFRESH_SHARE_MS = 5_000;
/** A cached read is asked again after this long even if the revision stayed (alarm shelving ends by time). */
const CACHE_TTL_MS = 10_000;
/** A cached verify: a token's expiry changes nothing at the logger's revision. */
const VERIFY_TTL_MS = 5_000;
/** Loggers without GET /revision (external ones) are asked again this much later. */
const NO_REVISION_RETRY_MS = 60_000;
let revisionUnsupportedUntil = 0;
/** Refreshes by session and refresh token; `at` is when the answer came (null: still running). */
const inflightRefreshes = new Map<string, { at: number | null; promise: Promise<TokenPair | null> }>();

/** The session named to the logger on a refresh: a hash, the session id itself stays in the cookie. */
function sessionBinding(sessionId: string): { session_binding?: string } {
  return sessionId ? { session_binding: createHash("sha256").update(`loggia-session\0${sessionId}`).digest("base64url") } : {};
}

/** How a read may be answered while the logger does not answer. */
export interface ReadOptions {
  /**
   * Keep the answer, and give the last kept one (with its age) while the logger is away (default
   * true). Off for what must never be shown old as if current (alarm states) and for chart data.
   */
  keep?: boolean;
  /**
   * Kept under this name instead of the call's parameters (readFreshRpc): for a read whose
   * parameters move with the clock (the last day of annotations), so the next page finds it.
   */
  keptAs?: string;
}

/** Whether an error is the logger being away (unreachable, past the page's deadline, or answering 503). */
export function isLoggerAway(error: unknown): boolean {
  return (error as { init?: { status?: number } } | null)?.init?.status === 503;
}

/**
 * The only way the console talks to the logger. Attaches the bearer token, refreshes once on
 * 401/403 and retries once (spec §4, §7), validates every answer with zod, and turns an
 * unreachable logger into a 503 the error boundary explains. A page load (a request that changes
 * nothing) gives the logger a deadline: once the logger has answered anything in the request it
 * is alive and calls get the full timeout, but a logger that answers nothing within
 * `deadlineMs` is taken for away, and every call of the request ends then (issue 26 §2).
 */
export class LoggerClient {
  private refreshing: Promise<boolean> | null = null;
  readonly config: LoggerConfig;
  private readonly tokens: TokenStore;
  /** Reads may be served from the cross-request cache (requests that change nothing: GET). */
  private readonly cache: boolean;
  private revisionPromise: Promise<string | null> | null = null;
  /** The end user's address, told to the logger on sign-in (its throttle counts per address). */
  private readonly clientAddress: string | null;
  /** The cookie session this client acts for: only its own requests share a refresh. */
  private readonly sessionId: string;
  /** Coded refusals in the reader's language (set per request once its language is known; app/services/refusalTexts.server.ts). */
  refusalTexts: RefusalTexts | null = null;
  /** A page's deadline for the logger's first answer (ms); 0: calls only have their own timeout. */
  private readonly deadlineMs: number;
  private deadline: { controller: AbortController; timer: NodeJS.Timeout } | null = null;
  /** The logger answered something in this request: it is alive, the deadline no longer applies. */
  private answered = false;
  private away = false;
  private staleSince: number | null = null;

  constructor(config: LoggerConfig, tokens: TokenStore, options: { cache?: boolean; clientAddress?: string | null; sessionId?: string; deadlineMs?: number } = {}) {
    this.config = config;
    this.tokens = tokens;
    this.cache = options.cache ?? false;
    this.clientAddress = options.clientAddress ?? null;
    this.sessionId = options.sessionId ?? "";
    this.deadlineMs = options.deadlineMs ?? 0;
  }

  /**
   * Null while every call of this request was answered; else the logger was away, and `since` is
   * the time of the oldest kept answer given instead (null: none was given, something is missing).
   */
  get outage(): { since: number | null } | null {
    return this.away ? { since: this.staleSince } : null;
  }

  /** The logger's change revision, asked once per request; null when it has none (no caching). */
  private revision(): Promise<string | null> {
    if (!this.cache || Date.now() < revisionUnsupportedUntil) return Promise.resolve(null);
    if (this.revisionPromise) return this.revisionPromise;
    let mine = false;
    const shared = sharedRevision(() => {
      mine = true;
      return this.fetch("/revision", { method: "GET" }).then(async (res) => {
        const json = (await readJson(res)) as { Revision?: unknown } | null;
        if (res.ok && typeof json?.Revision === "string") return json.Revision;
        revisionUnsupportedUntil = Date.now() + NO_REVISION_RETRY_MS;
        return null;
      });
    });
    this.revisionPromise = mine ? shared : this.joined(shared, "/revision");
    return this.revisionPromise;
  }

  /** A read that may come from the cache while the logger's revision is unchanged. */
  private async cached<T>(key: string, ttlMs: number, load: () => Promise<T>, options: ReadOptions = {}): Promise<T> {
    return this.keeping(key, options, async () => {
      const revision = await this.revision();
      if (revision === null) return load();
      return cachedAnswer(`${this.tokens.get().accessToken ?? "-"}\u0000${key}`, revision, ttlMs, load);
    });
  }

  /**
   * A read whose good answer is kept for this sign-in, and whose last kept answer stands in while
   * the logger is away (its time noted in `outage`). Without a session id nothing is kept.
   */
  private async keeping<T>(key: string, options: ReadOptions, load: () => Promise<T>, fresh = false): Promise<T> {
    const keep = (options.keep ?? true) && this.sessionId !== "";
    const keptKey = `${this.sessionId}\u0000${key}`;
    try {
      const value = await load();
      if (keep) keepAnswer(keptKey, value, Date.now(), fresh);
      return value;
    } catch (error) {
      const old = keep && isLoggerAway(error) ? keptAnswer<T>(keptKey) : undefined;
      if (!old) throw error;
      this.staleSince = Math.min(this.staleSince ?? old.at, old.at);
      return old.value;
    }
  }

  /** rpc() for reads: the same answer, from the cache when the logger changed nothing since. */
  readRpc<S extends z.ZodType>(method: string, params: object, schema: S, options?: ReadOptions): Promise<z.infer<S>> {
    return this.cached(`rpc\u0000${method}\u0000${JSON.stringify(params)}`, CACHE_TTL_MS, () => this.rpc(method, params, schema), options);
  }

  /** rest() for reads (GET, or a POST query such as /history/data); ttlMs bounds data that moves on. */
  readRest<S extends z.ZodType>(method: "GET" | "POST", path: string, body: object | undefined, schema: S, ttlMs = CACHE_TTL_MS, options?: ReadOptions): Promise<z.infer<S>> {
    return this.cached(`rest\u0000${method}\u0000${path}\u0000${JSON.stringify(body ?? null)}`, Math.min(ttlMs, CACHE_TTL_MS), () => this.rest(method, path, body, schema), options);
  }

  /** rest() for current data (values): never from the cache, but its last answer stands in during an outage. */
  readFresh<S extends z.ZodType>(method: "GET" | "POST", path: string, body: object | undefined, schema: S): Promise<z.infer<S>> {
    return this.keeping(`fresh\u0000${method}\u0000${path}\u0000${JSON.stringify(body ?? null)}`, {}, () => this.rest(method, path, body, schema), true);
  }

  /** rpc() for current state (devices' heartbeats, lists a screen edits): never from the cache, but its last answer stands in during an outage. */
  readFreshRpc<S extends z.ZodType>(method: string, params: object, schema: S, options: ReadOptions = {}): Promise<z.infer<S>> {
    // Kept under the method without its cache-buster (spec: GetVersionInformation?_dc={timestamp}).
    const key = `fresh\u0000rpc\u0000${method.replace(/\?_dc=\d+$/, "")}\u0000${options.keptAs === undefined ? JSON.stringify(params) : `as\u0000${options.keptAs}`}`;
    return this.keeping(key, options, () => this.rpc(method, params, schema), true);
  }

  async rpc<S extends z.ZodType>(method: string, params: object, schema: S): Promise<z.infer<S>> {
    const body = await this.authorized(`/rpc/${method}`, "POST", JSON.stringify(params));
    return this.parse(method, schema, body);
  }

  /** POST /verify; null when there is no valid session (after one refresh attempt). */
  async verify(): Promise<VerifyAnswer | null> {
    if (!this.tokens.get().accessToken) return null;
    return this.cached("verify", VERIFY_TTL_MS, () => this.verifyNow());
  }

  private async verifyNow(): Promise<VerifyAnswer | null> {
    if (!this.tokens.get().accessToken) return null;
    try {
      const body = await this.authorized("/verify");
      return this.parse("verify", verifyAnswer, body);
    } catch (error) {
      if (error instanceof LoggerError && (error.status === 401 || error.status === 403)) return null;
      throw error;
    }
  }

  /**
   * Throws InvalidCredentials for a refused password, SignInThrottled when the logger says wait.
   * `deviceToken`: the browser's proof of an earlier sign-in of this user (a logger without
   * device tokens ignores the field).
   */
  async passwordGrant(username: string, password: string, deviceToken: string | null = null): Promise<TokenPair> {
    const pair = await this.tokenRequest({ grant_type: "password", username, password, ...(deviceToken ? { device_token: deviceToken } : {}) });
    if (!pair) throw new InvalidCredentials();
    return pair;
  }

  /** The REST data API (`/online/…`, `/history/…`): same auth and error rules as RPC. */
  async rest<S extends z.ZodType>(method: "GET" | "POST" | "DELETE", path: string, body: object | undefined, schema: S): Promise<z.infer<S>> {
    const json = await this.authorized(path, method, body === undefined ? undefined : JSON.stringify(body));
    return this.parse(path, schema, json);
  }

  /**
   * A raw authorized answer whose body the caller streams (SSE, CSV); errors as LoggerError (a
   * 429's Retry-After included). `asConsole`: the live relay shows the console's client credentials.
   */
  async stream(path: string, method: "GET" | "POST", body?: object, signal?: AbortSignal, opts: { asConsole?: boolean } = {}): Promise<Response> {
    const extra: Record<string, string> = opts.asConsole ? { "X-Client-Authorization": this.clientAuthorization() } : {};
    const res = await this.exchange(path, method, body === undefined ? undefined : JSON.stringify(body), signal, extra);
    if (!res.ok) {
      const json = await readJson(res);
      this.storeAway(res.status, path);
      throw this.failure(res, json);
    }
    return res;
  }

  /** `Basic base64(id:secret)` of the console (RFC 6749 §2.3.1 form-encoding): how it proves it is the console. */
  clientAuthorization(): string {
    return this.basicAuth();
  }

  /** A raw body (a file) POSTed to a REST path; the JSON answer validated like rest(). */
  async upload<S extends z.ZodType>(path: string, bytes: Uint8Array<ArrayBuffer>, schema: S): Promise<z.infer<S>> {
    const res = await this.exchange(path, "POST", bytes);
    const json = await readJson(res);
    if (!res.ok) throw this.failure(res, json);
    return this.parse(path, schema, json);
  }

  private async authorized(path: string, method: "GET" | "POST" | "DELETE" = "POST", body?: string): Promise<unknown> {
    const res = await this.exchange(path, method, body ?? (method === "POST" ? "{}" : undefined));
    const json = await readJson(res);
    if (!res.ok) this.storeAway(res.status, path);
    if (!res.ok) throw this.failure(res, json);
    const value = valueOf(json);
    if (value !== undefined && value < 0) throw this.failure(res, json);
    return json;
  }

  /** The error of a refused answer: spec §8's text, said in the reader's language when the refusal is coded. */
  private failure(res: Response, json: unknown): LoggerError {
    const text = errorText(res.status, res.statusText, json);
    const refusal = refusalIn(json);
    const shown = refusal && this.refusalTexts ? this.refusalTexts(refusal, text) : text;
    return new LoggerError(res.status, text, valueOf(json), retryAfterOf(res), problemIn(json), refusal, shown);
  }

  /** One call with the bearer; on 401/403 one refresh and one retry (spec §4, §7). */
  private async exchange(path: string, method: string, body: string | Uint8Array<ArrayBuffer> | undefined, signal?: AbortSignal, extra: Record<string, string> = {}): Promise<Response> {
    const sentWith = this.tokens.get().accessToken;
    let res = await this.send(path, method, body, sentWith, signal, extra);
    if ((res.status === 401 || res.status === 403) && this.tokens.get().refreshToken) {
      // Another call of this request may have refreshed already: retry with its token.
      const current = this.tokens.get().accessToken;
      const refreshed = current !== sentWith || (await this.refreshOnce());
      if (refreshed) {
        await res.body?.cancel();
        res = await this.send(path, method, body, this.tokens.get().accessToken, signal, extra);
      }
    }
    return res;
  }

  private refreshOnce(): Promise<boolean> {
    this.refreshing ??= (async () => {
      const refreshToken = this.tokens.get().refreshToken;
      if (!refreshToken) return false;
      const pair = await this.sharedRefresh(refreshToken);
      this.tokens.set(pair);
      return pair !== null;
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Refresh tokens rotate and a reused one revokes the whole sign-in, so concurrent requests of
   * one browser (same cookie) must not each present it: they share the first one's answer — but
   * only requests of the same session, and only for a few seconds after it came. Anyone else
   * holding that refresh token (a copied cookie) presents it to the logger and ends the sign-in.
   */
  private sharedRefresh(refreshToken: string): Promise<TokenPair | null> {
    const now = Date.now();
    for (const [key, entry] of inflightRefreshes) if (entry.at !== null && now - entry.at > REFRESH_SHARE_MS) inflightRefreshes.delete(key);
    const key = `${this.sessionId}\u0000${refreshToken}`;
    const hit = inflightRefreshes.get(key);
    if (hit) return this.joined(hit.promise, "/token");
    const entry: { at: number | null; promise: Promise<TokenPair | null> } = {
      at: null,
      // Console replicas share no memory: the session's binding lets the logger answer another
      // replica's racing refresh of this session with the same pair (logger/auth/tokens.ts).
      promise: this.tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, ...sessionBinding(this.sessionId) }),
    };
    inflightRefreshes.set(key, entry);
    entry.promise.then(
      () => (entry.at = Date.now()),
      () => inflightRefreshes.delete(key),
    );
    return entry.promise;
  }

  /** RFC 7009: ends the sign-in at the logger; best effort, a sign-out never fails on it. */
  async revoke(): Promise<void> {
    const token = this.tokens.get().refreshToken ?? this.tokens.get().accessToken;
    if (!token) return;
    try {
      await fetch(`${this.config.baseUrl}/revoke`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: this.basicAuth() },
        body: new URLSearchParams({ token }).toString(),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (cause) {
      console.error("token revocation failed:", (cause as Error).message);
    }
  }

  private basicAuth() {
    return `Basic ${Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString("base64")}`;
  }

  /** null when the grant was refused (RFC 6749 invalid_grant); throws for anything else. */
  private async tokenRequest(form: Record<string, string>): Promise<TokenPair | null> {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Authorization: this.basicAuth() };
    // Whose browser this is: the logger throttles sign-ins per address and believes this header
    // only because the request carries the console's client secret.
    if (this.clientAddress) headers["X-Forwarded-For"] = this.clientAddress;
    const res = await this.fetch("/token", { method: "POST", headers, body: new URLSearchParams(form).toString() });
    const json = await readJson(res);
    if (res.ok) return this.parse("token", tokenPair, json);
    if (res.status === 429) throw new SignInThrottled(retryAfterOf(res) ?? 60);
    const err = oauthError.safeParse(json);
    if (err.success && (err.data.error === "invalid_grant" || err.data.error === "invalid_request")) return null;
    throw new LoggerError(res.status, errorText(res.status, res.statusText, json));
  }

  private send(path: string, method: string, body: string | Uint8Array<ArrayBuffer> | undefined, accessToken: string | undefined, signal?: AbortSignal, extra: Record<string, string> = {}) {
    return this.fetch(
      path,
      {
        method,
        headers: {
          ...(body === undefined ? {} : { "Content-Type": typeof body === "string" ? "application/json" : "application/octet-stream" }),
          ...extra,
          Authorization: `Bearer ${accessToken ?? "None"}` },
        body,
      },
      signal,
    );
  }

  /**
   * Streams pass their own signal (the browser going away), and wait for their answer as a call
   * does; calls get the timeout, and in a page load the deadline until the logger answered
   * anything (a paused logger costs a page at most `deadlineMs`, not the timeout; issue 26 §2).
   */
  private async fetch(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const { own, answered } = signal ? this.streamSignal(signal) : { own: this.callSignal(), answered: () => {} };
    try {
      const res = await fetch(`${this.config.baseUrl}${path}`, { ...init, signal: own });
      answered();
      this.alive();
      return res;
    } catch (cause) {
      answered();
      if (signal?.aborted) throw cause;
      this.away = true;
      logAway(`logger unreachable at ${this.config.baseUrl}${path}: ${this.awayReason(own, cause)}`);
      throw data({ reason: "logger-unavailable" }, { status: 503 });
    }
  }

  /**
   * A stream lasts as long as its browser wants it (`signal`), but waits for the logger's answer —
   * its headers — no longer than a call would: a hung logger held a download open for ever.
   */
  private streamSignal(signal: AbortSignal): { own: AbortSignal; answered: () => void } {
    const call = this.callSignal();
    const controller = new AbortController();
    const byBrowser = () => controller.abort(signal.reason);
    const byCall = () => controller.abort(call.reason);
    if (signal.aborted) byBrowser();
    else signal.addEventListener("abort", byBrowser, { once: true });
    if (call.aborted) byCall();
    else call.addEventListener("abort", byCall, { once: true });
    return { own: controller.signal, answered: () => call.removeEventListener("abort", byCall) };
  }

  private callSignal(): AbortSignal {
    // A request that already waited in vain does not wait again: the page drawn after a write the
    // logger did not answer shows what was kept at once, not after another timeout.
    if (this.away && !this.answered) return AbortSignal.abort(new Error("not asked: the logger did not answer earlier in this request"));
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    if (this.deadlineMs <= 0 || this.answered) return timeout;
    if (!this.deadline) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.deadlineMs);
      timer.unref();
      this.deadline = { controller, timer };
    }
    return AbortSignal.any([timeout, this.deadline.controller.signal]);
  }

  /**
   * Waits for what another request is asking the logger (sharedRevision, sharedRefresh) no longer
   * than this request would wait for its own call — the other one may have no deadline (a write,
   * or a page whose logger answered before it stopped) — and a logger away there is away here:
   * this request then says so (`outage`) instead of showing kept answers as current.
   */
  private async joined<T>(shared: Promise<T>, path: string): Promise<T> {
    const signal = this.callSignal();
    try {
      const value = await untilAborted(shared, signal);
      this.alive();
      return value;
    } catch (cause) {
      if (!signal.aborted && !isLoggerAway(cause)) throw cause;
      this.away = true;
      if (signal.aborted) logAway(`logger unreachable at ${this.config.baseUrl}${path} (asked by another request): ${this.awayReason(signal, cause)}`);
      throw data({ reason: "logger-unavailable" }, { status: 503 });
    }
  }

  /** Why a wait for the logger ended without its answer, for the log. */
  private awayReason(signal: AbortSignal, cause: unknown): string {
    if (this.deadline?.controller.signal.aborted && !this.answered) return `no answer within the page's ${this.deadlineMs} ms`;
    return (signal.reason as Error | undefined)?.message ?? (cause as Error).message;
  }

  /** The logger answered: the calls of this request still running keep their own timeout only. */
  private alive(): void {
    if (this.answered) return;
    this.answered = true;
    if (this.deadline) clearTimeout(this.deadline.timer);
  }

  /**
   * A logger that answers 503 cannot serve now (its PostgreSQL store is away, or it is busy): the
   * same outage page and retry as an unreachable logger (decision 0011), not the 500 page.
   */
  private storeAway(status: number, path: string): void {
    if (status !== 503) return;
    this.away = true;
    logAway(`logger unavailable (503) at ${path}`);
    throw data({ reason: "logger-unavailable" }, { status: 503 });
  }

  private parse<S extends z.ZodType>(what: string, schema: S, body: unknown): z.infer<S> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      console.error(`unexpected logger answer to ${what}:`, parsed.error.issues.slice(0, 3));
      throw data({ reason: "logger-bad-answer" }, { status: 502 });
    }
    return parsed.data;
  }
}

/** The promise's outcome, or the signal's abort if that comes first (the promise runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/** While the logger is away every page's calls fail: the log gets one line per 10 s, with how many more there were. */
const AWAY_LOG_MS = 10_000;
let awayLoggedAt = 0;
let awaySuppressed = 0;
function logAway(line: string): void {
  const now = Date.now();
  if (now - awayLoggedAt < AWAY_LOG_MS) {
    awaySuppressed++;
    return;
  }
  console.error(awaySuppressed ? `${line} (and ${awaySuppressed} more calls since the last such line)` : line);
  awayLoggedAt = now;
  awaySuppressed = 0;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function valueOf(json: unknown): number | undefined {
  const v = (json as { ReturnState?: { Value?: unknown } } | null)?.ReturnState?.Value;
  return typeof v === "number" ? v : undefined;
}
