// The JavaScript a first load of a route fetches before it hydrates, read from a client build's
// manifest: the entry and its imports, root's module and imports, the route's module and imports,
// and the text files of the page's language the entry loads before hydrating (the shell's and the
// screen's, the feature table's `texts`). Sizes are gzip (zlib's default level, as the bench always measured).
// Used by bench/dashboard.ts and tests/unit/console/firstLoadBudget.test.ts;
// `node bench/firstLoad.ts [buildDir]` prints each route's files.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { FEATURES } from "../app/features.ts";

type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
};

/** Issue 15: the dashboard's first load stays within this (KB gzip). */
export const DASHBOARD_BUDGET_KB = 150;

export type FirstLoad = { files: Array<{ file: string; kb: number }>; kb: number };

export function firstLoadOf(clientDir: string) {
  const assets = join(clientDir, "assets");
  const manifestFile = existsSync(assets) ? readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f)) : undefined;
  if (!manifestFile) return null;
  const text = readFileSync(join(assets, manifestFile), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
  const sizes = new Map<string, number>();
  const kb = (url: string) => {
    if (!sizes.has(url)) sizes.set(url, gzipSync(readFileSync(join(clientDir, url))).length / 1024);
    return sizes.get(url)!;
  };
  const textFile = (name: string) => readdirSync(assets).find((f) => f.startsWith(`texts-en-${name}-`) && f.endsWith(".js"));
  const textsOf = (path: string) =>
    ["translation", ...(FEATURES.find((f) => f.path === path)?.texts ?? [])].flatMap((name) => {
      const file = textFile(name);
      return file ? [`/assets/${file}`] : [];
    });
  const root = manifest.routes.root!;
  const base = [manifest.entry.module, ...manifest.entry.imports, root.module, ...(root.imports ?? [])];
  const measure = (files: Iterable<string>): FirstLoad => {
    const list = [...new Set(files)].map((file) => ({ file, kb: kb(file) }));
    return { files: list, kb: list.reduce((n, f) => n + f.kb, 0) };
  };
  return {
    manifest,
    /** Every page: entry, root, the shell's texts. */
    base: () => measure([...base, ...textsOf("/")]),
    /** A first load of the route with this id ("routes/dashboard"), or null if the build has none. */
    route: (id: string) => {
      const route = manifest.routes[id];
      if (!route) return null;
      return measure([...base, ...textsOf(`/${id.slice("routes/".length)}`), route.module, ...(route.imports ?? [])]);
    },
    /** Assets whose names match, summed (the interactive chart's chunks). */
    matching: (pattern: RegExp) => measure(readdirSync(assets).filter((f) => pattern.test(f)).map((f) => `/assets/${f}`)),
  };
}

if (import.meta.main) {
  const dir = resolve(process.argv[2] ?? join(import.meta.dirname, "../build"), "client");
  const load = firstLoadOf(dir);
  if (!load) throw new Error(`No client build in ${dir}`);
  const base = load.base();
  const baseFiles = new Set(base.files.map((f) => f.file));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`base (every page): ${base.kb.toFixed(1)} KB gzip`);
  for (const f of base.files.toSorted((a, b) => b.kb - a.kb)) say(`  ${f.kb.toFixed(1).padStart(6)}  ${f.file}`);
  for (const id of ["routes/dashboard", "routes/monitor", "routes/cockpit", "routes/userManagement", "routes/dashboardManager", ...process.argv.slice(3)]) {
    const r = load.route(id);
    if (!r) continue;
    say(`${id}: ${r.kb.toFixed(1)} KB gzip (own ${(r.kb - base.kb).toFixed(1)})`);
    if (id === "routes/dashboard" || process.argv.includes("-v"))
      for (const f of r.files.filter((x) => !baseFiles.has(x.file)).toSorted((a, b) => b.kb - a.kb)) say(`  ${f.kb.toFixed(1).padStart(6)}  ${f.file}`);
  }
  say(`interactive chart: ${load.matching(/^(uPlot|UPlotChart)[.-].*\.js$/).kb.toFixed(1)} KB gzip`);
}
