// `node bench/password-hash.ts [--rounds 5] [--hashes 20]`: what a password check (scrypt, N = 16384,
// 16 MB a hash; logger/auth/passwords.ts) costs in a process with the logger's allocator
// environment (logger/flags.ts, loggerEnv()) against glibc's defaults and against the fixed trim
// threshold alone. Each round runs the same hashes once in a fresh process of each kind, in turn;
// medians of the rounds. Target: the logger's environment within 1.25× of glibc's defaults (the
// fixed trim threshold alone mapped scrypt's block anew for every hash: 2.4×, bench/RESULTS.md).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loggerEnv } from "../logger/flags.ts";
import { machineLine, median } from "./machine.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" }, hashes: { type: "string", default: "20" } } });
const ROUNDS = Number(values.rounds);
const HASHES = Number(values.hashes);
const passwords = join(import.meta.dirname, "..", "logger", "auth", "passwords.ts");

// The child: HASHES hashes one after the other, then its CPU and minor page faults per hash.
const CHILD = `
  const { hashPassword } = await import(${JSON.stringify(passwords)});
  await hashPassword("warm-up-password");
  const u0 = process.resourceUsage();
  for (let i = 0; i < ${HASHES}; i++) await hashPassword("bench-password-" + i);
  const u1 = process.resourceUsage();
  const cpuMs = (u1.userCPUTime + u1.systemCPUTime - u0.userCPUTime - u0.systemCPUTime) / 1000 / ${HASHES};
  process.stdout.write(JSON.stringify({ cpuMs, faults: (u1.minorPageFault - u0.minorPageFault) / ${HASHES} }));
`;

const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^MALLOC_|^GLIBC_TUNABLES$/.test(k)));
const kinds: [string, NodeJS.ProcessEnv][] = [
  ["glibc's defaults", base],
  ["the logger's environment (loggerEnv())", { ...base, ...loggerEnv(base) }],
  ["the fixed trim threshold alone (no huge pages)", { ...base, ...loggerEnv({ GLIBC_TUNABLES: "" }) }],
];

const figures = kinds.map(() => ({ cpuMs: [] as number[], faults: [] as number[] }));
console.log(machineLine());
for (let round = 0; round < ROUNDS; round++) {
  kinds.forEach(([, env], i) => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD], { env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`hash child failed: ${run.stderr}`);
    const { cpuMs, faults } = JSON.parse(run.stdout) as { cpuMs: number; faults: number };
    figures[i]!.cpuMs.push(cpuMs);
    figures[i]!.faults.push(faults);
  });
}
const reference = median(figures[0]!.cpuMs);
kinds.forEach(([name], i) => {
  const cpu = median(figures[i]!.cpuMs);
  console.log(`${name.padEnd(48)} ${cpu.toFixed(1).padStart(6)} ms CPU a hash (${(cpu / reference).toFixed(2)}×), ${median(figures[i]!.faults).toFixed(0).padStart(5)} page faults; rounds ${figures[i]!.cpuMs.map((x) => x.toFixed(1)).join(" ")}`);
});
const ratio = median(figures[1]!.cpuMs) / reference;
console.log(`Target: the logger's environment ≤ 1.25× glibc's defaults — ${ratio.toFixed(2)}×: ${ratio <= 1.25 ? "PASS" : "FAIL"}`);
console.log(machineLine());
process.exit(ratio <= 1.25 ? 0 : 1);
