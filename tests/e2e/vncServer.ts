import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "../support/freePort.ts";

// A real VNC server for the VNC view's tests: Xvfb (a virtual X display) painted one solid
// colour with xsetroot, shared by x11vnc with a password (Debian packages xvfb, x11vnc,
// x11-xserver-utils; scripts/ensure-e2e-deps.sh installs them).

export const VNC_PASSWORD = "secret";


async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      done(true);
    });
    s.once("error", () => done(false));
  });

export class VncServer {
  readonly display: string;
  port = 0;
  private xvfb: ChildProcess | null = null;
  private x11vnc: ChildProcess | null = null;

  constructor(displayNumber: number) {
    this.display = `:${displayNumber}`;
  }

  async start(colour: string) {
    this.xvfb = spawn("Xvfb", [this.display, "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"], { stdio: "ignore" });
    await until("Xvfb", () => spawnSync("xsetroot", ["-display", this.display, "-solid", colour]).status === 0);
    this.port = await freePort();
    await this.startVnc();
  }

  /** (Re)starts x11vnc on the same port. */
  async startVnc() {
    this.x11vnc = spawn("x11vnc", ["-display", this.display, "-rfbport", String(this.port), "-localhost", "-passwd", VNC_PASSWORD, "-forever", "-shared", "-quiet", "-nopw"], { stdio: "ignore" });
    await until("x11vnc", () => accepts(this.port));
  }

  async stopVnc() {
    const child = this.x11vnc;
    this.x11vnc = null;
    if (!child || child.exitCode !== null) return;
    // x11vnc cleans up on SIGTERM, which with a client connected may not end it at all (a full
    // run's vnc.spec hung here until its 60 s timeout): after 3 s it is killed.
    await new Promise<void>((done) => {
      const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
      child.once("exit", () => {
        clearTimeout(kill);
        done();
      });
      child.kill("SIGTERM");
    });
  }

  paint(colour: string) {
    const res = spawnSync("xsetroot", ["-display", this.display, "-solid", colour]);
    if (res.status !== 0) throw new Error(`xsetroot failed: ${res.stderr}`);
  }

  async stop() {
    await this.stopVnc();
    this.xvfb?.kill("SIGTERM");
  }
}
