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

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), vncProxyInDev()],
  resolve: { tsconfigPaths: true },
  build: {
    rollupOptions: {
      output: {
        // A text file's chunk says whose it is (texts-en-dashboards-…): both languages have the same file names.
        chunkFileNames: (chunk) => {
          const text = chunk.facadeModuleId?.match(/\/locales\/(\w+)\/(\w+)\.json$/);
          return text ? `assets/texts-${text[1]}-${text[2]}-[hash].js` : "assets/[name]-[hash].js";
        },
      },
    },
  },
});
