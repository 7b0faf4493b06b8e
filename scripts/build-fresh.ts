// The console build, made only when it is missing or older than what it is built from: shared by
// `npm start` and the soak benchmark, so both judge staleness the same way.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
// Besides app/ and public/, a change of the build's own configuration makes a build stale.
const CONFIG_FILES = ["package.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export type BuildOptions = {
  /** The build folder, relative to the repository ("build" as `npm start`). */
  buildDir?: string;
  log?: (line: string) => void;
  /** Show the build tool's progress (npm start) or only its errors (benchmarks). */
  verbose?: boolean;
};

/** Builds the console into buildDir when needed; throws when the build fails. */
export function buildIfStale({ buildDir = "build", log = console.log, verbose = false }: BuildOptions = {}): void {
  const output = join(resolve(root, buildDir), "server", "index.js");
  const sources = Math.max(
    newestMtime(join(root, "app")),
    newestMtime(join(root, "public")),
    ...CONFIG_FILES.map((f) => newestMtime(join(root, f))),
  );
  if (existsSync(output) && statSync(output).mtimeMs >= sources) return;
  log(buildDir === "build" ? "Building the console…" : `Building the console into ${buildDir}…`);
  const result = spawnSync(process.execPath, [join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    cwd: root,
    stdio: ["ignore", verbose ? "inherit" : "ignore", "inherit"],
    env: { ...process.env, ...(buildDir === "build" ? {} : { LOGGIA_BUILD_DIR: resolve(root, buildDir) }) },
  });
  if (result.status !== 0 || !existsSync(output)) throw new Error("the console build failed");
}
