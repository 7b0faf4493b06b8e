import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.ts";

// A real MQTT broker (Debian's mosquitto) for tests, benchmarks and e2e: started on a spare
// port from a temporary config, stopped and started again on the same port (a broker outage).

export const MOSQUITTO = process.env.MOSQUITTO_BIN ?? "/usr/sbin/mosquitto";

/** Why the real broker cannot run here (a test skips with this), or null. */
export function mosquittoMissing(): string | null {
  return existsSync(MOSQUITTO) ? null : `${MOSQUITTO} is missing: install Debian's mosquitto (scripts/ensure-e2e-deps.sh does)`;
}

export type Mosquitto = {
  port: number;
  url: string;
  /** Stops the broker (the port is kept for start()). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its temporary folder. */
  close(): Promise<void>;
};

export { freePort };

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** Starts mosquitto on 127.0.0.1 (anonymous, or with users given as name → password). */
export async function startMosquitto(o: { port?: number; users?: Record<string, string> } = {}): Promise<Mosquitto> {
  const missing = mosquittoMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), "loggia-mosquitto-"));
  const port = o.port ?? (await freePort());
  // Started as root, mosquitto would switch to the user "mosquitto", who cannot read the temp folder.
  const lines = [`user ${userInfo().username}`, `listener ${port} 127.0.0.1`, "persistence false", "log_dest stderr", "log_type error", "log_type warning"];
  if (o.users) {
    // mosquitto reads hashed password files: written in plain text, hashed in place by mosquitto_passwd -U.
    const pwFile = join(dir, "passwords");
    writeFileSync(pwFile, Object.entries(o.users).map(([u, p]) => `${u}:${p}`).join("\n") + "\n");
    await run("mosquitto_passwd", ["-U", pwFile]);
    lines.push("allow_anonymous false", `password_file ${pwFile}`);
  } else {
    lines.push("allow_anonymous true");
  }
  const conf = join(dir, "mosquitto.conf");
  writeFileSync(conf, lines.join("\n") + "\n");
  let child: ChildProcess | null = null;
  let stderr = "";

  const start = async () => {
    stderr = "";
    const c = spawn(MOSQUITTO, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
    child = c;
    c.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => c.once("exit", (code) => resolve(code)));
    for (let i = 0; i < 200; i++) {
      if (await accepting(port)) return;
      const done = await Promise.race([exited, new Promise<"wait">((r) => setTimeout(() => r("wait"), 25))]);
      if (done !== "wait") throw new Error(`mosquitto exited (${done}) before listening on ${port}: ${stderr.trim()}`);
    }
    throw new Error(`mosquitto did not listen on ${port} within 5 s: ${stderr.trim()}`);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGTERM");
    });
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    c.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    c.once("error", reject);
    c.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} failed (${code}): ${err.trim()}`))));
  });
}
