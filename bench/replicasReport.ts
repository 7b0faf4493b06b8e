// The console replicas benchmark's figures (bench/replicas.ts) as a table, and as the "Console
// replicas" section of bench/RESULTS.md (replaced between its markers on each run).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./machine.ts";
import type { Setup } from "./replicas.ts";

const START = "<!-- replicas:start -->";
const END = "<!-- replicas:end -->";
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Run {
  machine: string;
  cores: number;
  loadStart: number;
  loadEnd: number;
  seconds: number;
  rounds: number;
  clients: number;
  page: string;
}

/** Medians of a setup: the page rate and each process's CPU, in cores. */
function figures(s: Setup) {
  const rate = median(s.rounds.map((r) => r.rate));
  const consoles = s.consoles === 1 ? [median(s.rounds.map((r) => r.cores.consoles[0]!))] : [0, 1].map((i) => median(s.rounds.map((r) => r.cores.consoles[i]!)));
  const logger = median(s.rounds.map((r) => r.cores.logger));
  const nginx = median(s.rounds.map((r) => r.cores.nginx));
  const generator = median(s.rounds.map((r) => r.cores.generator));
  const total = sum(consoles) + logger + nginx + generator;
  return { rate, consoles, logger, nginx, generator, total, perConsoleCore: rate / sum(consoles), perCore: rate / (sum(consoles) + logger + nginx) };
}

/** What the CPU totals say about reading the rates. */
function contended(one: number, two: number, run: Run): string {
  if (Math.max(one, two) < 0.8 * run.cores) {
    // Other work had most of the cores: the scheduler shares them among all runnable processes,
    // and two consoles, two processes, get a larger share than one — part of the rate's gain.
    return `The machine was busy with other work (load average ${run.loadStart.toFixed(1)} on ${run.cores} cores): these processes got a
  share of it, and two consoles, being two processes, get a larger share than one. The page rate's
  ratio therefore overstates the gain of a second console here; the pages per console core-second
  are the figure that carries over to a machine with cores to spare.`;
  }
  return `With ${run.cores} cores, one console already shares them with the logger, nginx and the load
  generator, so a second console can only add what is left idle — on more cores (or another
  machine) the pages per console core-second are the figure to multiply.`;
}

/** The section's text; written into RESULTS.md when `write`. */
export function writeSection(setups: Setup[], run: Run, write: boolean): string {
  const [one, two] = setups.map(figures) as [ReturnType<typeof figures>, ReturnType<typeof figures>];
  const date = new Date().toISOString().slice(0, 10);
  const row = (name: string, f: ReturnType<typeof figures>, rates: number[]) =>
    `| ${name} | ${f.rate.toFixed(0)} (${rates.map((r) => r.toFixed(0)).join(", ")}) | ${f.consoles.map((c) => c.toFixed(2)).join(" + ")} | ${f.logger.toFixed(2)} | ${f.nginx.toFixed(2)} | ${f.generator.toFixed(2)} | ${f.perConsoleCore.toFixed(0)} | ${f.perCore.toFixed(0)} |`;
  const text = `## Console replicas (\`node bench/replicas.ts\`)

${date}, ${run.machine}, load average ${run.loadStart.toFixed(2)} → ${run.loadEnd.toFixed(2)} (1 min). The machine is shared and
loaded: these figures are indicative, only their ratios within this one run compare. \`GET ${run.page}\` signed in
(one cookie session), ${run.clients} closed-loop clients with keep-alive, through Debian's nginx (1 worker,
round-robin, no stickiness, keep-alive to the consoles) to one or two built console processes, which
share one logger process; ${run.rounds} rounds of ${run.seconds} s each, medians. CPU is each process's user +
system time over the round's wall time, in cores (1.00 = one core busy all the time); the load
generator (this benchmark) runs on the same ${run.cores} cores.

| Setup | Pages/s, median (rounds) | Consoles' CPU | Logger | nginx | Load generator | Pages per console core-second | Pages per core-second (consoles + logger + nginx) |
|---|---|---|---|---|---|---|---|
${row("1 console behind nginx", one, setups[0]!.rounds.map((r) => r.rate))}
${row("2 consoles behind nginx", two, setups[1]!.rounds.map((r) => r.rate))}

* Two consoles against one: ${(two.rate / one.rate).toFixed(2)}× the pages per second, for ${(sum(two.consoles) / sum(one.consoles)).toFixed(2)}× the consoles' CPU; each console core
  serves ${two.perConsoleCore.toFixed(0)} pages/s with two against ${one.perConsoleCore.toFixed(0)} with one (${(two.perConsoleCore / one.perConsoleCore).toFixed(2)}×: what a second console costs per page).
* All processes together used ${one.total.toFixed(2)} cores with one console and ${two.total.toFixed(2)} with two, of ${run.cores}. ${contended(one.total, two.total, run)}
`;
  if (write) {
    const file = join(import.meta.dirname, "RESULTS.md");
    const old = existsSync(file) ? readFileSync(file, "utf8") : "";
    const section = `${START}\n${text.trim()}\n${END}`;
    const a = old.indexOf(START);
    const b = old.indexOf(END);
    writeFileSync(file, a >= 0 && b > a ? old.slice(0, a) + section + old.slice(b + END.length) : `${old.trimEnd()}\n\n${section}\n`);
  }
  return text;
}
