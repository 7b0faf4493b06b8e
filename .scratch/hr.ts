import { login } from "../tests/unit/logger/helpers.ts";
import { spawn } from "node:child_process";
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const MAIN = "logger/main.ts";
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) / 100; };
const dataDir = mkdtempSync(join(tmpdir(), "hr-"));
const child = spawn(process.execPath, ["--max-semi-space-size=4", "--expose-gc", ...(process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/hrprof"] : []), MAIN, "--port", "0", "--data", dataDir, "--backfill", process.argv[2] ?? "20m"], { env: { ...process.env, ADMIN_PASSWORD: "x1234567890abcQ", SIM: "on", SIM_BENCH_RATE_HZ: "1000", SIM_BENCH_CHANNELS: "10", SIM_SEED: "3" }, stdio: ["ignore", "pipe", "ignore"] });
const url = await new Promise<string>((res) => { let out = ""; child.stdout!.on("data", (d) => { out += d; const m = /logger listening on (\S+)/.exec(out); if (m) res(m[1]!); }); });
console.log("listening; logger cpu", cpu(child.pid!));
const access = (await login(url, "admin", "x1234567890abcQ")).access;
const va = (await (await fetch(`${url}/online/structure/variables`, { headers: { Authorization: `Bearer ${access}` } })).json()) as any; if (!va.Data) { console.log(JSON.stringify(va).slice(0, 300)); child.kill(); process.exit(1); }
const vars = va.Data.filter((v: any) => v.SampleRateHz === 1000).slice(0, 10).map((v: any) => ({ SID: v.SourceId, VID: v.Id }));
const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
for (let i = 0; i < 3; i++) {
  const c0 = cpu(child.pid!), me0 = process.cpuUsage(), t0 = performance.now();
  const res = await fetch(`${url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${access}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: end - 600_000, End: end, Variables: vars, Interval: 2 }) });
  let bytes = 0; for await (const ch of res.body!) bytes += ch.byteLength;
  const me = process.cpuUsage(me0);
  console.log(`read ${i}: ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(2)} s; logger ${(cpu(child.pid!) - c0).toFixed(2)} CPU-s, client ${((me.user + me.system) / 1e6).toFixed(2)}`);
}
child.kill("SIGINT"); await new Promise((r) => child.once("exit", r));
