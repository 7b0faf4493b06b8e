// `npm run bench`: every benchmark in turn, each printing its own figures and PASS/FAIL lines;
// a failing one does not hide the others. Exits non-zero if any target was missed.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const steps: [string, string, string[]][] = [
  ["time-series store", process.execPath, [join(root, "bench", "run.ts")]],
  ["storage engines: embedded, PostgreSQL, naive PostgreSQL (short; node bench/storage-engines.ts for 100 M samples)", process.execPath, [join(root, "bench", "storage-engines.ts"), "--short"]],
  ["series compression: packed against plain rows, both engines (short, 2 Hz; node bench/compression.ts for 30 d at 40 Hz)", process.execPath, [join(root, "bench", "compression.ts"), "--short"]],
  ["console build", process.execPath, [join(root, "node_modules", "@react-router", "dev", "bin.cjs"), "build"]],
  ["dashboards", process.execPath, [join(root, "bench", "dashboard.ts")]],
  ["a browser test's page load: new page against the kept one (issue 25)", process.execPath, [join(root, "bench", "page-cost.ts")]],
  ["faults: a paused logger, a lost network (issue 26)", process.execPath, [join(root, "bench", "faults.ts")]],
  ["export", process.execPath, [join(root, "bench", "export.ts")]],
  ["heavy readers: 4 clients × the heaviest data request, /revision p99, dashboard, logger memory", process.execPath, [join(root, "bench", "heavy-readers.ts")]],
  ["heavy answer: the logger's CPU for one 91 MB data answer", process.execPath, [join(root, "bench", "heavy-answer.ts")]],
  ["live WebSocket", process.execPath, [join(root, "bench", "ws.ts")]],
  ["CSV import", process.execPath, [join(root, "bench", "import.ts")]],
  ["UDBF export against CSV, and UDBF import", process.execPath, [join(root, "bench", "udbf.ts")]],
  ["sign-in throttle", process.execPath, [join(root, "bench", "throttle.ts")]],
  ["a password check under the logger's allocator settings", process.execPath, [join(root, "bench", "password-hash.ts")]],
  ["console replicas behind nginx (short; node bench/replicas.ts for the full rounds)", process.execPath, [join(root, "bench", "replicas.ts"), "--seconds", "2", "--rounds", "3", "--no-write"]],
  ["MQTT data source", process.execPath, [join(root, "bench", "sources-mqtt.ts")]],
  ["Modbus TCP data source", process.execPath, [join(root, "bench", "sources-modbus.ts")]],
  ["OPC UA data source", process.execPath, [join(root, "bench", "sources-opcua.ts")]],
  ["soak (short; npm run bench:soak for the long one)", process.execPath, [join(root, "bench", "soak.ts"), "--kiosks", "10", "--operators", "3", "--minutes", "2", "--idle-s", "10", "--no-write"]],
];

const failed: string[] = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) failed.push(name);
}
console.log(failed.length ? `\nTargets missed in: ${failed.join(", ")}` : "\nAll benchmark targets met.");
process.exit(failed.length ? 1 : 0);
