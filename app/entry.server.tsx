import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { chartMarkup } from "./services/chartSvg.server";
import { acceptsZstd, DocumentSink } from "./services/documentStream.server";
import { stateIfAny } from "./services/context.server";
import { getInstance } from "./services/i18n.server";
import { ServerChartsContext, type SvgLook } from "./ui/dashboard/serverCharts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
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
        <ServerChartsContext.Provider value={svgOf}>
          <ServerRouter context={routerContext} url={request.url} />
        </ServerChartsContext.Provider>
      </I18nextProvider>,
      {
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

// For server/main.ts: the VNC WebSocket proxy's session and target check (reaches it via the build's entry.module).
export { authorizeVncUpgrade } from "./services/vnc-proxy.server";
