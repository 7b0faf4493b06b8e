import { readFileSync } from "node:fs";
for (const f of process.argv.slice(2)) {
  const p = JSON.parse(readFileSync(f, "utf8"));
  const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const dt = p.timeDeltas; let total = 0;
  for (let i = 0; i < p.samples.length; i++) { const n = byId.get(p.samples[i]); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)); total += dt[i] ?? 0; }
  console.log(f.split("/").pop(), (total / 1e6).toFixed(2), "s");
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 22)) console.log((v / 1e3).toFixed(0).padStart(7), "ms", k);
}
