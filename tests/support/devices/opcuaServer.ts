import { tmpdir } from "node:os";
import { join } from "node:path";
import { OPCUACertificateManager } from "node-opcua-certificate-manager";
import { DataType, StatusCodes, Variant } from "node-opcua-client";
import { standardUnits } from "node-opcua-data-access";
import { nodesets } from "node-opcua-nodesets";
import { OPCUAServer } from "node-opcua-server";
import { listenOnFreePort } from "../freePort.ts";

// An OPC UA device for tests, the benchmark and the README's demo (scripts/demo-devices.ts),
// served by node-opcua-server: anonymous and user/password sign-in, every security mode, and in
// namespace 1 (NodeIds "ns=1;s=…"):
//   Objects/Cell                    folder
//     Temperature  Double °C, EURange 0..100, 20 + 5·sin(2π t/10 s), changes every tick
//     Pressure     Double bar, EURange 0..10, 5 + sin(2π t/7 s)
//     Counter      UInt32, +1 every tick (no unit, no range)
//     Setpoint     Double °C, EURange 0..100, writable; every write is recorded in `writes`
//     Faulty       Double whose value carries BadSensorFailure
//     Motor        object with Speed (Double r/min, EURange 0..3000)
//   Objects/Bench  (with `benchItems`) Item0…ItemN−1 UInt32: each server sample is the previous + 1,
//                  so a gap in what a client receives is a lost value
// stop() shuts the server down (sessions and subscriptions are gone, as after a device restart);
// start() brings up a fresh one on the same port with the same values going on.

export const OPCUA_USER = { username: "operator", password: "Operator-Secret-1" };

export type OpcuaWrite = { nodeId: string; value: number };

export type OpcuaDevice = {
  port: number;
  endpoint: string;
  writes: OpcuaWrite[];
  /** Values each bench item has produced so far (index → last value). */
  benchCounters: Uint32Array;
  /** Freezes the bench items (no further changes), so a client can drain what was sent. */
  freezeBench(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

export async function startOpcuaServer(o: { port?: number; tickMs?: number; benchItems?: number; pkiDir?: string } = {}): Promise<OpcuaDevice> {
  let port = 0;
  const tickMs = o.tickMs ?? 100;
  const pkiDir = o.pkiDir ?? join(tmpdir(), `loggia-opcua-device-pki-${process.getuid?.() ?? 0}`);
  const benchCounters = new Uint32Array(o.benchItems ?? 0);
  let frozen = false;
  const writes: OpcuaWrite[] = [];
  const t0 = Date.now();
  const state = { counter: 0, setpoint: 50 };
  let server: OPCUAServer | null = null;
  let ticker: NodeJS.Timeout | null = null;

  async function start(): Promise<void> {
    const certificateManager = new OPCUACertificateManager({ rootFolder: pkiDir, automaticallyAcceptUnknownCertificate: true });
    // (without its own, the server would put a user-certificate store under ~/.config)
    const userCertificateManager = new OPCUACertificateManager({ rootFolder: join(pkiDir, "user"), automaticallyAcceptUnknownCertificate: false });
    const s = new OPCUAServer({
      port,
      nodesets: [nodesets.standard],
      serverCertificateManager: certificateManager,
      userCertificateManager,
      allowAnonymous: true,
      userManager: { isValidUser: (u: string, p: string) => u === OPCUA_USER.username && p === OPCUA_USER.password },
      buildInfo: { productName: "Loggia test device" },
      serverCapabilities: { maxSessions: 50, maxMonitoredItemsPerSubscription: 20_000 } as never,
      maxConnectionsPerEndpoint: 50,
    });
    await s.initialize();
    const addressSpace = s.engine.addressSpace!;
    const ns = addressSpace.getOwnNamespace();
    const objects = addressSpace.rootFolder.objects;
    const cell = ns.addFolder(objects, { browseName: "Cell", nodeId: "s=Cell" });
    const analog = (browseName: string, unit: unknown, low: number, high: number, extra: object = {}) =>
      ns.addAnalogDataItem({
        organizedBy: cell,
        browseName,
        nodeId: `s=Cell.${browseName}`,
        dataType: "Double",
        engineeringUnits: unit as never,
        engineeringUnitsRange: { low, high },
        minimumSamplingInterval: 0,
        accessLevel: "CurrentRead",
        userAccessLevel: "CurrentRead",
        ...extra,
      });
    const temperature = analog("Temperature", standardUnits.degree_celsius, 0, 100);
    const pressure = analog("Pressure", standardUnits.bar, 0, 10);
    analog("Setpoint", standardUnits.degree_celsius, 0, 100, {
      minimumSamplingInterval: 50,
      accessLevel: "CurrentRead | CurrentWrite",
      userAccessLevel: "CurrentRead | CurrentWrite",
      value: {
        get: () => new Variant({ dataType: DataType.Double, value: state.setpoint }),
        set: (v: Variant) => {
          state.setpoint = Number(v.value);
          writes.push({ nodeId: "ns=1;s=Cell.Setpoint", value: state.setpoint });
          return StatusCodes.Good;
        },
      },
    });
    const counter = ns.addVariable({ componentOf: cell, browseName: "Counter", nodeId: "s=Cell.Counter", dataType: "UInt32", minimumSamplingInterval: 0, accessLevel: "CurrentRead", userAccessLevel: "CurrentRead" });
    const faulty = ns.addVariable({ componentOf: cell, browseName: "Faulty", nodeId: "s=Cell.Faulty", dataType: "Double", minimumSamplingInterval: 0, accessLevel: "CurrentRead", userAccessLevel: "CurrentRead" });
    faulty.setValueFromSource(new Variant({ dataType: DataType.Double, value: 0 }), StatusCodes.BadSensorFailure);
    const motor = ns.addObject({ organizedBy: cell, browseName: "Motor", nodeId: "s=Cell.Motor" });
    const speed = ns.addAnalogDataItem({
      componentOf: motor,
      browseName: "Speed",
      nodeId: "s=Cell.Motor.Speed",
      dataType: "Double",
      engineeringUnits: standardUnits.revolutions_per_minute as never,
      engineeringUnitsRange: { low: 0, high: 3000 },
      minimumSamplingInterval: 0,
      accessLevel: "CurrentRead",
      userAccessLevel: "CurrentRead",
    });
    if (benchCounters.length) {
      const bench = ns.addFolder(objects, { browseName: "Bench", nodeId: "s=Bench" });
      for (let i = 0; i < benchCounters.length; i++) {
        ns.addVariable({
          componentOf: bench,
          browseName: `Item${i}`,
          nodeId: `s=Bench.Item${i}`,
          dataType: "UInt32",
          minimumSamplingInterval: 10,
          // sampled: every sample the server takes is a new value (unless frozen)
          value: {
            get: () => {
              if (!frozen) benchCounters[i] = benchCounters[i]! + 1;
              return new Variant({ dataType: DataType.UInt32, value: benchCounters[i] });
            },
          },
        });
      }
    }
    const tick = () => {
      const t = (Date.now() - t0) / 1000;
      state.counter = (state.counter + 1) >>> 0;
      temperature.setValueFromSource(new Variant({ dataType: DataType.Double, value: 20 + 5 * Math.sin((2 * Math.PI * t) / 10) }));
      pressure.setValueFromSource(new Variant({ dataType: DataType.Double, value: 5 + Math.sin((2 * Math.PI * t) / 7) }));
      speed.setValueFromSource(new Variant({ dataType: DataType.Double, value: 1500 + 500 * Math.sin((2 * Math.PI * t) / 20) }));
      counter.setValueFromSource(new Variant({ dataType: DataType.UInt32, value: state.counter }));
    };
    tick();
    ticker = setInterval(tick, tickMs);
    try {
      await s.start();
    } catch (e) {
      clearInterval(ticker);
      ticker = null;
      await s.shutdown(0).catch(() => {});
      throw e;
    }
    server = s;
  }

  async function stop(): Promise<void> {
    if (ticker) clearInterval(ticker);
    ticker = null;
    const s = server;
    server = null;
    if (s) await s.shutdown(0);
  }

  port = await listenOnFreePort(o.port, (p) => {
    port = p;
    return start();
  });
  return {
    port,
    endpoint: `opc.tcp://127.0.0.1:${port}`,
    writes,
    benchCounters,
    freezeBench: () => void (frozen = true),
    stop,
    start,
    close: stop,
  };
}
