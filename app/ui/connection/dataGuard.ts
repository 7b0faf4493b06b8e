import { connectionLost, connectionOk, waitToRetry } from "./connection";

// The router's own reads (a navigation's or a revalidation's `.data` request, route discovery's
// `/__manifest`) that fail for the network are tried again with back-off instead of failing:
// React Router would render the error boundary ("500 Sorry, server goes wrong") for a network
// blip, and a wall display would stay there (issue 26 §1). Meanwhile the navigation is pending
// and the page keeps its last picture; the shell says it is reconnecting. React Router has no
// hook for this — client instrumentations only observe, and framework mode takes no data
// strategy — so the reads are recognised here, by address, in the one fetch they all go through.
// Anything else (actions, resource routes, other sites) passes untouched: a write is never sent twice.

/** A proxy's answer while the console behind it is away: the router would take it for the page's error. */
const PROXY_AWAY = new Set([502, 503, 504]);
/** One attempt is given up after this long (a console or proxy that accepts and never answers), and tried again. */
const ATTEMPT_MS = 30_000;

function routerRead(input: RequestInfo | URL, init: RequestInit | undefined): { url: URL; signal: AbortSignal | null } | null {
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  if (method !== "GET") return null;
  const url = new URL(request ? request.url : String(input), window.location.href);
  if (url.origin !== window.location.origin || !(url.pathname.endsWith(".data") || url.pathname === "/__manifest")) return null;
  return { url, signal: init?.signal ?? request?.signal ?? null };
}

export function guardRouterReads(): void {
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const read = routerRead(input, init);
    if (!read) return original(input, init);
    for (let attempt = 0; ; attempt++) {
      let answer: Response | null = null;
      const bounded = AbortSignal.any([...(read.signal ? [read.signal] : []), AbortSignal.timeout(ATTEMPT_MS)]);
      try {
        answer = await original(input instanceof Request ? new Request(input, { signal: bounded }) : input, { ...init, signal: bounded });
      } catch (error) {
        if (read.signal?.aborted) throw error;
      }
      // The console answered (its own errors carry X-Remix-Response and are the page's to show),
      // unless it says the logger is away: then too the page stays as it is, and the read is tried again.
      const away = answer?.headers.get("X-Loggia-Away") === "logger" ? "logger" : !answer || (PROXY_AWAY.has(answer.status) && !answer.headers.has("X-Remix-Response")) ? "network" : null;
      if (answer && away === null) {
        connectionOk();
        return answer;
      }
      await answer?.body?.cancel();
      connectionLost(away ?? "network");
      await waitToRetry(attempt, read.signal);
    }
  };
}

/**
 * A read the router abandoned (a navigation overtaken by another, a fetcher reloaded or unmounted)
 * is aborted mid-stream; React Router's stream decoder (turbo-stream) then rejects the promises of
 * the data still to come — and one of its own that nothing awaits — with the abort's reason. Nobody
 * waits for them any more, so the browser reports each as an uncaught error ("signal is aborted
 * without reason"). An abort is what was asked for, not a fault: only those are kept quiet.
 */
export function quietAbandonedReads(): void {
  window.addEventListener("unhandledrejection", (event) => {
    if (event.reason instanceof DOMException && event.reason.name === "AbortError") event.preventDefault();
  });
}
