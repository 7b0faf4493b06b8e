// What a soak prints and writes: the memory curve as a table, as an SVG plot (bench/soak.svg),
// and as the "Soak" section of bench/RESULTS.md (replaced between its markers on each run).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { mb, type SoakResult } from "./soakRun.ts";

const MiB = 1048576;
const f1 = (bytes: number) => (bytes / MiB).toFixed(1);
const secs = (ms: number) => (ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(0)} s`);

export function curveTable(r: SoakResult): string {
  const rows = ["| t | console RSS | console heap used / total | console external | logger RSS | logger heap used / total | logger external | pages |", "|---|---|---|---|---|---|---|---|"];
  for (const s of r.samples) rows.push(`| ${secs(s.t)} | ${f1(s.console.rss)} | ${f1(s.console.heapUsed)} / ${f1(s.console.heapTotal)} | ${f1(s.console.external)} | ${f1(s.logger.rss)} | ${f1(s.logger.heapUsed)} / ${f1(s.logger.heapTotal)} | ${f1(s.logger.external)} | ${s.pages} |`);
  return rows.join("\n");
}

export function gcTable(r: SoakResult): string {
  const rows = ["| forced GC | t | console heap used | console RSS | logger heap used | logger RSS |", "|---|---|---|---|---|---|"];
  for (const g of r.gc) rows.push(`| ${g.phase} | ${secs(g.t)} | ${f1(g.console.heapUsed)} | ${f1(g.console.rss)} | ${f1(g.logger.heapUsed)} | ${f1(g.logger.rss)} |`);
  return rows.join("\n");
}

export function summary(r: SoakResult): string[] {
  const o = r.options;
  const kinds = Object.entries(r.errorKinds).map(([k, n]) => `${k} ×${n}`).join(", ");
  return [
    `${o.kiosks} kiosks + ${o.operators} operators for ${secs(o.durationMs)} (then ${secs(o.idleMs)} idle)`,
    `Pages served: ${r.pages} (${(r.pages / (o.durationMs / 1000)).toFixed(1)}/s); errors: ${r.errors}${kinds ? ` (${kinds})` : ""}`,
    `Page latency: p50 ${r.latency.p50.toFixed(0)} ms, p95 ${r.latency.p95.toFixed(0)} ms, p99 ${r.latency.p99.toFixed(0)} ms, max ${r.latency.max.toFixed(0)} ms`,
    `Live stream: ${r.streamEvents} events, ${r.streamDrops} drops, ${r.streamRenewals ?? 0} planned renewals (token ran out; resumed at once)`,
    ...(r.countsMax && Object.keys(r.countsMax).length ? [`Console cache entries, most seen in a sample: ${Object.entries(r.countsMax).map(([k, v]) => `${k} ${v}`).join(", ")}`] : []),
  ];
}

/** Heap after forced GC: end of load (or after idle) minus after warm-up, per process. */
export function heapGrowth(r: SoakResult) {
  const warm = r.gc.find((g) => g.phase === "after warm-up");
  const end = r.gc.find((g) => g.phase === "end of load");
  if (!warm || !end) return null;
  return { console: end.console.heapUsed - warm.console.heapUsed, logger: end.logger.heapUsed - warm.logger.heapUsed, warm, end };
}

/** RSS and heap used of both processes over time, with the forced-GC points marked. */
export function svgPlot(r: SoakResult, title: string): string {
  const W = 760;
  const H = 360;
  const L = 56;
  const R = 150;
  const T = 34;
  const B = 40;
  const tMax = Math.max(...r.samples.map((s) => s.t), 1);
  const vMax = Math.ceil(Math.max(...r.samples.flatMap((s) => [s.console.rss, s.logger.rss])) / MiB / 100) * 100 || 100;
  const x = (t: number) => L + ((W - L - R) * t) / tMax;
  const y = (b: number) => H - B - ((H - T - B) * b) / MiB / vMax;
  const series: [string, string, string, (s: SoakResult["samples"][number]) => number][] = [
    ["console RSS", "#1d4ed8", "", (s) => s.console.rss],
    ["console heap used", "#1d4ed8", "5 4", (s) => s.console.heapUsed],
    ["logger RSS", "#b45309", "", (s) => s.logger.rss],
    ["logger heap used", "#b45309", "5 4", (s) => s.logger.heapUsed],
  ];
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${L}" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`);
  for (let v = 0; v <= vMax; v += vMax / 5) {
    out.push(`<line x1="${L}" x2="${W - R}" y1="${y(v * MiB).toFixed(1)}" y2="${y(v * MiB).toFixed(1)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${L - 6}" y="${(y(v * MiB) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(0)}</text>`);
  }
  const tickMs = tMax > 20 * 60_000 ? 600_000 : tMax > 4 * 60_000 ? 60_000 : 30_000;
  for (let t = 0; t <= tMax; t += tickMs) {
    out.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${T}" y2="${H - B}" stroke="#f3f4f6"/>`);
    out.push(`<text x="${x(t).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${(t / 60_000).toFixed(tickMs < 60_000 ? 1 : 0)}</text>`);
  }
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">minutes</text>`);
  out.push(`<text x="14" y="${(T + H - B) / 2}" transform="rotate(-90 14 ${(T + H - B) / 2})" text-anchor="middle">MiB</text>`);
  series.forEach(([name, color, dash, get], i) => {
    const pts = r.samples.map((s) => `${x(s.t).toFixed(1)},${y(get(s)).toFixed(1)}`).join(" ");
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ""} points="${pts}"/>`);
    out.push(`<line x1="${W - R + 10}" x2="${W - R + 34}" y1="${T + 10 + i * 18}" y2="${T + 10 + i * 18}" stroke="${color}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ""}/>`);
    out.push(`<text x="${W - R + 40}" y="${T + 14 + i * 18}">${name}</text>`);
  });
  for (const g of r.gc) {
    for (const [p, color] of [["console", "#1d4ed8"], ["logger", "#b45309"]] as const) {
      out.push(`<circle cx="${x(g.t).toFixed(1)}" cy="${y(g[p].heapUsed).toFixed(1)}" r="4" fill="#fff" stroke="${color}" stroke-width="2"><title>${p} heap after forced GC (${g.phase}): ${mb(g[p].heapUsed)}</title></circle>`);
    }
  }
  out.push(`<circle cx="${W - R + 22}" cy="${T + 10 + 4 * 18}" r="4" fill="#fff" stroke="#374151" stroke-width="2"/><text x="${W - R + 40}" y="${T + 14 + 4 * 18}">heap after GC</text>`);
  out.push("</svg>");
  return out.join("\n");
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function machine(): string {
  return `${cpus()[0]?.model.trim() ?? "?"} × ${cpus().length}, load average ${loadavg()[0]!.toFixed(2)}`;
}

const START = "<!-- soak:start -->";
const END = "<!-- soak:end -->";

/** Replaces (or appends) the soak section of RESULTS.md with body. */
export function writeResultsSection(file: string, body: string) {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const section = `${START}\n${body.trim()}\n${END}`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  const next = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
