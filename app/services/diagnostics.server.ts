// Sizes of the console's long-lived caches and per-stream tables, for watching memory without
// an inspector: each registers a counter here, and whoever holds the process (the soak
// benchmark's preloaded probe, bench/soakProbe.ts) reads them through a global symbol, since the
// server build bundles its own copy of this module.
const KEY = Symbol.for("loggia.diagnostics.counts");
type Registry = Map<string, () => number>;
const registry: Registry = ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ?? new Map();
(globalThis as Record<symbol, unknown>)[KEY] = registry;

/** Registers (or replaces) the counter of a cache or table. */
export function countEntries(name: string, size: () => number): void {
  registry.set(name, size);
}

/** Every registered counter's current value. */
export function entryCounts(): Record<string, number> {
  return Object.fromEntries([...registry].map(([name, size]) => [name, size()]));
}
