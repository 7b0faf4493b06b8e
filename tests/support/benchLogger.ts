import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { LOGGER_NODE_FLAGS, loggerEnv } from "../../logger/flags.ts";
import { waitForLine } from "./childLine.ts";

// The logger as its own process with a simulated bench, for the tests and benches that measure
// it from outside (its memory, its CPU, its event loop): heavy-readers.test.ts, bench/heavy-readers.ts,
// bench/heavy-answer.ts.

const root = resolve(import.meta.dirname, "../..");

/**
 * A logger of the tree at `root` (this one, or a worktree of another commit) on a port of its own
 * over `dataDir`, started as npm start runs it (its V8 flags and allocator settings, logger/flags.ts),
 * simulating a bench of `channels` channels at `rateHz` with `backfill` of history; resolves once it
 * listens. `onOutput` sees what it writes on stdout from then on (e.g. --trace-gc's lines).
 */
export async function startBenchLogger(opts: {
  root?: string;
  dataDir: string;
  password: string;
  backfill: string;
  rateHz: number;
  channels: number;
  seed: number;
  nodeFlags?: string[];
  /** More environment, e.g. STORE_URL and LOGGER_ID for a logger on PostgreSQL. */
  env?: Record<string, string>;
  onOutput?: (chunk: string) => void;
}): Promise<{ url: string; child: ChildProcess }> {
  const from = opts.root ?? root;
  const child = spawn(process.execPath, [...LOGGER_NODE_FLAGS, ...(opts.nodeFlags ?? []), join(from, "logger/main.ts"), "--port", "0", "--data", opts.dataDir, "--backfill", opts.backfill], {
    cwd: from,
    env: { ...process.env, ...loggerEnv(), ADMIN_PASSWORD: opts.password, SIM: "on", SIM_BENCH_RATE_HZ: String(opts.rateHz), SIM_BENCH_CHANNELS: String(opts.channels), SIM_SEED: String(opts.seed), ...opts.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = (await waitForLine(child, /logger listening on (\S+)/, `the logger of ${from}`, opts.onOutput))[1]!;
  return { url, child };
}
