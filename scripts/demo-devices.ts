// `npx node scripts/demo-devices.ts [--modbus-port 5020] [--opcua-port 4840] [--host 127.0.0.1]`:
// a demo Modbus TCP device and a demo OPC UA server with changing values, to try the
// "Connect your devices" examples of the README without real hardware. Ctrl+C stops both.
// (The same devices the unit tests and benchmarks use: tests/support/devices/.)
import { parseArgs } from "node:util";
import { startModbusServer } from "../tests/support/devices/modbusServer.ts";
import { OPCUA_USER, startOpcuaServer } from "../tests/support/devices/opcuaServer.ts";

const { values } = parseArgs({
  options: {
    "modbus-port": { type: "string", default: "5020" },
    "opcua-port": { type: "string", default: "4840" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
const modbusPort = Number(values["modbus-port"]);
const opcuaPort = Number(values["opcua-port"]);
for (const [name, port] of [["--modbus-port", modbusPort], ["--opcua-port", opcuaPort]] as const) {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (1..65535)`);
}

const modbus = await startModbusServer({ port: modbusPort, host: values.host });
const opcua = await startOpcuaServer({ port: opcuaPort });

console.log(`Modbus TCP device on ${values.host}:${modbus.port} (any unit id)
  holding 0-1    float32 sine ±10, period 10 s (word order big, byte order big)
  holding 2-3    the same sine with word order little
  holding 100    uint16 setpoint, writable (an output)
  input   0      uint16 counter, +1 every 100 ms
  input   1-2    uint32 counter (word order big)
  coil    0-15   writable, read back as written
  discrete 0     toggles every second

OPC UA server on opc.tcp://${values.host === "0.0.0.0" ? "127.0.0.1" : values.host}:${opcua.port}
  security None, Sign or SignAndEncrypt (Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss)
  anonymous, or user "${OPCUA_USER.username}" with password "${OPCUA_USER.password}"
  Objects/Cell: Temperature (°C, 0..100), Pressure (bar, 0..10), Counter, Setpoint (°C, writable),
                Faulty (always BadSensorFailure), Motor/Speed (r/min, 0..3000) — NodeIds ns=1;s=Cell.<Name>

Ctrl+C to stop.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void Promise.allSettled([modbus.close(), opcua.close()]).then(() => process.exit(0));
  });
}
