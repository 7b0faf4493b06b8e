// The chart bench page (bench/chart.html + chart-bench.tsx) served by Vite, with React as the
// console ships it: Vite's dev server bundles dependencies for NODE_ENV, and with it unset the
// component ran on React's development build (its checks and warnings cost ≈ 15 ms before the
// chart's first render, a cost bare uPlot never had). A cache folder of its own, so other tools'
// development bundles are not replaced.
import { join, resolve } from "node:path";
import { freePort } from "./stack.ts";

const root = resolve(import.meta.dirname, "..");

export async function startChartPage(): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import("vite");
  const port = await freePort();
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  const vite = await createServer({ configFile: false, root, mode: "production", cacheDir: join(root, "node_modules/.vite-bench-chart"), logLevel: "silent", appType: "mpa", server: { port, host: "127.0.0.1", hmr: false }, resolve: { alias: { "~": join(root, "app") } }, oxc: { jsx: { runtime: "automatic" } } } as never);
  await vite.listen();
  return {
    url: `http://127.0.0.1:${port}/bench/chart.html`,
    async close() {
      await vite.close();
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    },
  };
}
