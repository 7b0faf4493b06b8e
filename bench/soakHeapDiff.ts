// `node bench/soakHeapDiff.ts <earlier.heapsnapshot> <later.heapsnapshot> [--top 30] [--strings]`
// Which kinds of objects grew between two heap snapshots of the same process (written by the
// soak with `--snapshots`, i.e. v8.writeHeapSnapshot()): count and self size per constructor
// (objects), per type (strings, closures, arrays…), sorted by growth. --strings also prints the
// most frequent prefixes of strings that exist only in the later snapshot (what is being kept).
// A snapshot of a 300 MB heap is a ~450 MB JSON file: give this node room to parse two
// (`node --max-old-space-size=6000 bench/soakHeapDiff.ts …`).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}
type Stats = Map<string, { count: number; size: number }>;

function load(file: string) {
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt, idAt] = ["type", "name", "self_size", "id"].map((f) => fields.indexOf(f)) as [number, number, number, number];
  const types = s.snapshot.meta.node_types[0];
  const stats: Stats = new Map();
  const strings = new Map<number, string>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    const name = s.strings[s.nodes[i + nameAt]!]!;
    const key = type === "object" || type === "native" ? name : type === "closure" ? `(closure) ${name || "anonymous"}` : `(${type})`;
    const entry = stats.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += s.nodes[i + sizeAt]!;
    stats.set(key, entry);
    if (type === "string" || type === "concatenated string" || type === "sliced string") strings.set(s.nodes[i + idAt]!, name);
  }
  return { stats, strings, total: [...stats.values()].reduce((a, b) => a + b.size, 0) };
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "30" }, strings: { type: "boolean", default: false } } });
if (positionals.length !== 2) {
  console.error("usage: node bench/soakHeapDiff.ts <earlier.heapsnapshot> <later.heapsnapshot> [--top N] [--strings]");
  process.exit(2);
}
const a = load(positionals[0]!);
const b = load(positionals[1]!);
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
console.log(`Self sizes: ${kb(a.total)} → ${kb(b.total)} (${b.total >= a.total ? "+" : ""}${kb(b.total - a.total)})\n`);
const rows = [...new Set([...a.stats.keys(), ...b.stats.keys()])].map((k) => {
  const x = a.stats.get(k) ?? { count: 0, size: 0 };
  const y = b.stats.get(k) ?? { count: 0, size: 0 };
  return { k, dCount: y.count - x.count, dSize: y.size - x.size, count: y.count, size: y.size };
});
rows.sort((p, q) => q.dSize - p.dSize);
console.log("Δ size      Δ count    count (later)  constructor / type");
for (const r of rows.slice(0, Number(values.top))) console.log(`${kb(r.dSize).padStart(10)}  ${String(r.dCount).padStart(8)}  ${String(r.count).padStart(12)}  ${r.k}`);
if (values.strings) {
  // Node ids are stable across snapshots of one process: strings with new ids were made since.
  const prefixes = new Map<string, number>();
  for (const [id, text] of b.strings) {
    if (a.strings.has(id)) continue;
    const p = text.slice(0, 60).replace(/\s+/g, " ");
    prefixes.set(p, (prefixes.get(p) ?? 0) + 1);
  }
  console.log("\nNew strings (most frequent 60-character prefixes):");
  for (const [p, n] of [...prefixes].sort((x, y) => y[1] - x[1]).slice(0, Number(values.top))) console.log(`${String(n).padStart(7)}  ${JSON.stringify(p)}`);
}
