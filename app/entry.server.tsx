import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { chartMarkup } from "./services/chartSvg.server";
import { contentSecurityPolicy, cspSource, newNonce } from "./services/csp.server";
import { acceptsZstd, DocumentSink } from "./services/documentStream.server";
import { stateIfAny } from "./services/context.server";
import { env } from "./services/env.server";
import { bodyLimit, clientAddress, originAllowed, refusal, requestOrigin, type RequestFacts } from "./services/requestGate.server";
import { getInstance } from "./services/i18n.server";
import { ServerChartsContext, type SvgLook } from "./ui/dashboard/serverCharts";
import { NonceContext } from "./ui/nonce";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = newNonce();
  // The settings the root loader read already (memoised per request); none when signed out.
  const settings = await stateIfAny(loadContext)?.auth?.then((a) => a.settings).catch(() => null);
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy(nonce, { images: [cspSource(settings?.MapTileUrl)], frames: [cspSource(settings?.JupyterUrl)] }),
  );
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const charts = stateIfAny(loadContext)?.charts;
    const svgOf = charts ? (id: string, look: SvgLook) => (charts.has(id) ? chartMarkup(charts.get(id)!, look) : null) : null;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={getInstance(loadContext)}>
        <NonceContext.Provider value={nonce}>
          <ServerChartsContext.Provider value={svgOf}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </ServerChartsContext.Provider>
        </NonceContext.Provider>
      </I18nextProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const zstd = acceptsZstd(request);
          const sink = new DocumentSink({
            zstd,
            ended() {
              clearTimeout(timeoutId);
              timeoutId = undefined;
            },
          });
          responseHeaders.set("Content-Type", "text/html");
          responseHeaders.append("Vary", "Accept-Encoding");
          if (zstd) responseHeaders.set("Content-Encoding", "zstd");
          // The console renders per-user pages: never cache them in shared caches.
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
          responseHeaders.set("X-Content-Type-Options", "nosniff");
          responseHeaders.set("Referrer-Policy", "same-origin");
          responseHeaders.set("X-Frame-Options", "SAMEORIGIN");
          pipe(sink as unknown as NodeJS.WritableStream);
          resolve(new Response(sink.body, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * A client data request answered 503 is the logger away (the client's only 503): said in a header
 * the browser's data guard reads, so the page it navigates from stays, reconnecting, and the
 * request is tried again (app/ui/connection/dataGuard.ts; issue 26 §1).
 */
export function handleDataRequest(response: Response): Response {
  if (response.status === 503) response.headers.set("X-Loggia-Away", "logger");
  return response;
}

// For server/main.ts (through the build's entry.module): the VNC WebSocket proxy's session and
// target check, and the gate every request passes before React Router (origin, method, body).
export { authorizeVncUpgrade } from "./services/vnc-proxy.server";
// What is logged of errors while answering: not the router's 4xx answers to odd requests.
export { handleError } from "./services/errorLog.server";
export const requestGate = {
  refusal: (facts: RequestFacts) => refusal(facts),
  requestOrigin: (facts: Pick<RequestFacts, "headers" | "encrypted">) => requestOrigin(facts),
  originAllowed,
  bodyLimit,
  clientAddress: (headers: Headers, peer: string | undefined) => clientAddress(headers, peer),
  trustProxy: env.trustProxy,
};
