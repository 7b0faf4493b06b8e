import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { FEATURES } from "~/features";
import en from "~/locales/en";
import { loadTexts, textsFor, textsIfLoaded } from "~/locales";

// A browser loads the shell's texts and the text files its screen declares (the feature table's
// `texts`). These tests read every route module with everything it imports and check that each
// text file whose keys appear there is declared for the route's path — a missing one would show
// raw keys — and that every literal key in the app exists.

const app = resolve(import.meta.dirname, "../../../app");
const fileNames = readdirSync(join(app, "locales/en")).filter((f) => f.endsWith(".json") && f !== "translation.json").map((f) => f.slice(0, -5));

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("~/") ? join(app, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
  // Server modules run where every text is loaded (i18n.server): a browser needs none of theirs.
  if (!base || base.includes("/locales") || /\.server(\.tsx?)?$/.test(base)) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const m of source.matchAll(/(?:import|export)[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const target = resolveImport(file, (m[1] ?? m[2])!);
    if (target) moduleGraph(target, seen);
  }
  return seen;
}

function textFilesUsed(files: Iterable<string>): string[] {
  const used = new Set<string>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    for (const name of fileNames) if (new RegExp(`["'\`]${name}\\.[A-Za-z$]`).test(source)) used.add(name);
  }
  return [...used].sort();
}

/** Every routed module with the path a browser opens it at (app/routes.ts and the feature table). */
function routedModules(): Array<{ module: string; path: string }> {
  const routes = readFileSync(join(app, "routes.ts"), "utf8");
  const plain = [...routes.matchAll(/route\("([^"]+)", "([^"]+)"\)/g)].map((m) => ({ path: `/${m[1]}`, module: m[2]! }));
  const screens = FEATURES.filter((f) => f.module).map((f) => ({ path: f.path, module: f.module! }));
  return [{ path: "/", module: "routes/home.tsx" }, ...plain, ...screens];
}

describe("texts per route", () => {
  it("declare every text file a route's code uses", () => {
    const routes = routedModules();
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.flatMap(({ module, path }) => {
      const declared = new Set(textsFor(path));
      return textFilesUsed(moduleGraph(join(app, module)))
        .filter((name) => !declared.has(name))
        .map((name) => `${path} (${module}) uses ${name}.json`);
    });
    expect(missing).toEqual([]);
  });

  it("declare no text file that does not exist", () => {
    const unknown = FEATURES.flatMap((f) => (f.texts ?? []).filter((name) => !fileNames.includes(name)).map((name) => `${f.key}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it("has every key the code names literally", () => {
    const keys = new Set<string>();
    const walk = (node: unknown, prefix: string) => {
      if (typeof node === "string") keys.add(prefix.replace(/_(zero|one|two|few|many|other)$/, ""));
      else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
    };
    walk(en, "");
    const files = new Set<string>();
    for (const { module } of routedModules()) moduleGraph(join(app, module), files);
    moduleGraph(join(app, "root.tsx"), files);
    const unknown: string[] = [];
    for (const file of files) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\(\s*"([A-Za-z][\w]*(?:\.[\w]+)+)"/g)) {
        if (!keys.has(m[1]!)) unknown.push(`${file.slice(app.length)}: ${m[1]}`);
      }
    }
    expect(files.size).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it("loads the shell's and a screen's files once, merged as i18next wants them", async () => {
    expect(textsFor("/dashboard")).toEqual(["dashboards", "kiosk", "operator"]);
    expect(textsFor("/dashboard/series")).toEqual(["dashboards", "kiosk", "operator"]);
    expect(textsFor("/signin")).toEqual(["signin"]);
    expect(textsFor("/versionInfo")).toEqual(["about"]);
    expect(textsFor("/nowhere")).toEqual([]);
    const first = await loadTexts("it", ["dashboards"]);
    expect(first).toMatchObject({ nav: { home: expect.any(String) }, dashboards: { widget: expect.any(Object) } });
    expect(first).not.toHaveProperty("users");
    expect(await loadTexts("it", ["dashboards"])).toBeNull();
    const more = await loadTexts("it", ["users"]);
    expect(Object.keys(more!)).toEqual(["users"]);
    expect(textsIfLoaded("it")).toHaveProperty("dashboards");
    expect(textsIfLoaded("it")).toHaveProperty("users");
  });
});
