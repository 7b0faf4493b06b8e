import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { OpcuaDriver } from "../../../logger/sources/opcua.ts";
import { recordEvents } from "../../support/devices/driverEvents.ts";

// A device that hangs without closing the connection (here: its process stopped with SIGSTOP)
// sends no more keep-alives: the driver must say so, not go on reporting "connected".

let child: ChildProcess | null = null;
afterAll(() => {
  child?.kill("SIGCONT");
  child?.kill("SIGTERM");
});

it("a hung server (no keep-alives, socket open) turns the state to error; when it resumes, values flow again", async () => {
  child = spawn(process.execPath, [join(import.meta.dirname, "../../support/devices/opcuaServerProcess.ts")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child!.once("exit", (code) => reject(new Error(`server exited (${code})`)));
    let out = "";
    child!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const ready = /ready (\d+)/.exec(out);
      if (ready) resolve(Number(ready[1]));
    });
  });
  const rec = recordEvents();
  const endpoint = `opc.tcp://127.0.0.1:${port}`;
  const driver = new OpcuaDriver(
    {
      ID: 3,
      Name: "Hung",
      Protocol: "opcua",
      Enabled: true,
      PeriodMs: 100,
      Connection: { Endpoint: endpoint, SecurityMode: "None", SecurityPolicy: "None", Auth: "anonymous", Username: "" },
      Variables: [{ VariableId: "", Name: "Counter", Unit: "", RangeMin: 0, RangeMax: 1, Precision: 0, Direction: "I", Address: { NodeId: "ns=1;s=Cell.Counter" } }],
    },
    rec.events,
    { now: Date.now },
  );
  try {
    driver.start();
    await vi.waitFor(() => expect(rec.valuesOf(0).length).toBeGreaterThan(2), { timeout: 15_000, interval: 25 });
    child.kill("SIGSTOP");
    const stoppedAt = Date.now();
    await vi.waitFor(() => expect(rec.state()).toBe("error"), { timeout: 15_000, interval: 50 });
    expect(Date.now() - stoppedAt).toBeGreaterThan(1000); // noticed by silence, not by a closed socket
    expect(rec.states.at(-1)?.error).toContain(endpoint);
    const seen = rec.values.length;
    child.kill("SIGCONT");
    await vi.waitFor(() => expect(rec.values.length).toBeGreaterThan(seen + 2), { timeout: 20_000, interval: 50 });
    expect(rec.state()).toBe("connected");
  } finally {
    await driver.stop();
  }
}, 60_000);
