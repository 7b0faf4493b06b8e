import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { createVncProxy, upgradeRequest } from "./server/vnc-proxy.ts";

/** `npm run dev`: the VNC view's WebSocket proxy (server/main.ts has it in production). */
function vncProxyInDev(): Plugin {
  return {
    name: "loggia-vnc-proxy",
    apply: "serve",
    configureServer(server) {
      const proxy = createVncProxy({
        authorize: async (req) => {
          const mod = (await server.ssrLoadModule("/app/services/vnc-proxy.server.ts")) as typeof import("./app/services/vnc-proxy.server");
          return mod.authorizeVncUpgrade(upgradeRequest(req));
        },
      });
      // Other upgrades (Vite's own HMR socket) are left alone.
      server.httpServer?.on("upgrade", (req, socket, head) => proxy.handleUpgrade(req, socket, head));
    },
  };
}

/**
 * `npm run dev`: the request gate (origin check, methods, body types, Content-Length) that
 * server/main.ts applies in production — React Router's own origin check is off
 * (react-router.config.ts). Streamed bodies are not counted here.
 */
function requestGateInDev(): Plugin {
  return {
    name: "loggia-request-gate",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.method === "GET" || req.method === "HEAD") return next();
        void (async () => {
          const gate = (await server.ssrLoadModule("/app/services/requestGate.server.ts")) as typeof import("./app/services/requestGate.server");
          const headers = new Headers();
          for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
          const refusal = gate.refusal({ method: req.method ?? "GET", path: new URL(req.url ?? "/", "http://dev").pathname, headers });
          if (!refusal) return next();
          res.writeHead(refusal.status, { "Content-Type": "text/plain", ...refusal.headers });
          res.end(`${refusal.status} ${refusal.reason}\n`);
        })().catch(next);
      });
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), vncProxyInDev(), requestGateInDev()],
  resolve: { tsconfigPaths: true },
  build: {
    rollupOptions: {
      output: {
        // React, React DOM and React Router in one chunk. Every page loads all of it before it
        // hydrates (entry, root and the routes import different parts), but left to itself the
        // bundler cut it into seven chunks named after a first module (hooks, lib, components,
        // errorBoundaries…), each gzipped alone with its own import/export glue: one chunk is
        // ~4 KB gzip less on every first load (dashboard 151.8 -> 147.7 KB; issue 15's budget).
        // i18next is not among them (the browser has its own translator, app/locales/translator.ts).
        codeSplitting: { groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|react-i18next|cookie|set-cookie-parser)[\\/]/ }] },
        // A text file's chunk says whose it is (texts-en-dashboards-…): both languages have the same file names.
        chunkFileNames: (chunk) => {
          const text = chunk.facadeModuleId?.match(/\/locales\/(\w+)\/(\w+)\.json$/);
          return text ? `assets/texts-${text[1]}-${text[2]}-[hash].js` : "assets/[name]-[hash].js";
        },
      },
    },
  },
});
