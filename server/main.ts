// The console's HTTP server: what `react-router-serve` does (express 5, compression, immutable
// /assets, public/ files, the React Router request handler, a one-line request log), plus
// WebSocket upgrades for the VNC view's proxy (server/vnc-proxy.ts), which react-router-serve
// cannot handle. Usage: node server/main.ts [build/server/index.js]; PORT, HOST as before.
// Every request to React Router first passes the app's request gate (server/request.ts).
import { createServer } from "node:http";
import { createServer as netServer } from "node:net";
import { networkInterfaces } from "node:os";
import { join, posix, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler, type ServerBuild as RouterBuild } from "react-router";
import { keepIdleConnections } from "./keepAlive.ts";
import { createConsoleHandler, type RequestGate } from "./request.ts";
import { createVncProxy, upgradeRequest, type UpgradeCheck } from "./vnc-proxy.ts";

process.env.NODE_ENV ??= "production";
const MAX_HEADER_BYTES = 64 * 1024;
process.setSourceMapsEnabled(true);

type ServerBuild = RouterBuild & {
  entry: { module: { authorizeVncUpgrade?: (request: Request) => Promise<UpgradeCheck>; requestGate?: RequestGate } };
  publicPath: string;
  assetsBuildDirectory: string;
};

const buildPath = resolve(process.argv[2] ?? "build/server/index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
const authorizeVncUpgrade = build.entry.module.authorizeVncUpgrade;
if (!authorizeVncUpgrade) throw new Error(`${buildPath} does not export authorizeVncUpgrade from its entry.server`);
const requestGate = build.entry.module.requestGate;
if (!requestGate) throw new Error(`${buildPath} does not export requestGate from its entry.server`);

function freePort(preferred: number, host?: string): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((done, fail) => {
      const s = netServer();
      s.unref();
      s.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" || e.code === "EACCES" ? done(undefined) : fail(e)));
      s.listen(host ? { port, host } : { port }, () => {
        const address = s.address();
        const chosen = typeof address === "object" && address ? address.port : port;
        s.close(() => done(chosen));
      });
    });
  return tryPort(preferred).then(async (p) => p ?? (await tryPort(0)) ?? Promise.reject(new Error("No available port found")));
}

const parsedPort = process.env.PORT === undefined ? NaN : Number(process.env.PORT);
const port = Number.isNaN(parsedPort) ? await freePort(3000, process.env.HOST) : parsedPort;
const publicPath = (() => {
  let p: string;
  try {
    p = new URL(build.publicPath).pathname;
  } catch {
    p = build.publicPath;
  }
  return p.startsWith("/") ? p : `/${p}`;
})();

const app = express();
app.disable("x-powered-by");
// No browser may guess a type for anything the console serves (static files, downloads, pages).
app.use((_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
});
app.use(compression());
// Every static file has an extension and no page's path has one: pages skip the three static
// middlewares and their file-system lookup each.
const statics = express.Router();
statics.use(posix.join(publicPath, "assets"), express.static(join(build.assetsBuildDirectory, "assets"), { immutable: true, maxAge: "1y" }));
statics.use(publicPath, express.static(build.assetsBuildDirectory));
statics.use(express.static("public", { maxAge: "1h" }));
statics.use("/.well-known", express.static(join(build.assetsBuildDirectory, ".well-known")));
app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? statics(req, res, next) : next()));
// morgan's "tiny" format, as react-router-serve logs (morgan is not one of our dependencies).
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${res.getHeader("content-length") ?? "-"} - ${ms.toFixed(3)} ms`);
  });
  next();
});
// Mounted without a route pattern: Express would decode the path's parameters first and answer
// a malformed one (`/%ff`) itself, logging a URIError's stack; the handler answers it with a page.
app.use(createConsoleHandler({ handle: createRequestHandler(build, process.env.NODE_ENV), gate: requestGate }));

const proxy = createVncProxy({
  authorize: (req) => authorizeVncUpgrade(upgradeRequest(req)),
  // A browser's upgrade names its page's origin: it must be the console's, as the request gate
  // decides it (PUBLIC_ORIGIN, or X-Forwarded-* from a trusted proxy). Clients without Origin
  // are no browsers, and cannot carry a victim's cookie.
  sameOrigin: (req) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const origin = headers.get("origin");
    return origin === null || requestGate.originAllowed(headers, requestGate.requestOrigin({ headers }));
  },
  maxConnections: Number(process.env.VNC_MAX_CONNECTIONS ?? 16) || 16,
});

const onListen = () => {
  const address =
    process.env.HOST ||
    Object.values(networkInterfaces())
      .flat()
      .find((ip) => String(ip?.family).includes("4") && !ip?.internal)?.address;
  if (!address) console.log(`[loggia-console] http://localhost:${port}`);
  else console.log(`[loggia-console] http://localhost:${port} (http://${address}:${port})`);
};
// A request head may be 64 KB (Node's default is 16 KB): a link of up to 16 KB then still fits
// into the sign-in page's redirect_uri, a little longer for its encoding (issue 24).
const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
keepIdleConnections(server);
if (process.env.HOST) server.listen(port, process.env.HOST, onListen);
else server.listen(port, onListen);
server.on("upgrade", (req, socket, head) => {
  if (!proxy.handleUpgrade(req, socket, head)) socket.destroy();
});

/** After SIGTERM, requests in flight get this long; then connections still open (live streams) are cut. */
const SHUTDOWN_GRACE_MS = 5_000;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    proxy.close();
    // Exit once the last connection has ended: a timer or a socket towards the logger (a 15 s
    // request timeout, a live subscription's) must not keep a stopped console alive.
    server.close((error) => {
      if (error) console.error(error);
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  });
}
