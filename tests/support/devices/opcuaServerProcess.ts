// `node tests/support/devices/opcuaServerProcess.ts <port>`: the test OPC UA device in a process of
// its own, so a test can freeze it (SIGSTOP) like a hung device. Prints "ready" once listening.
import { startOpcuaServer } from "./opcuaServer.ts";

const device = await startOpcuaServer({ port: Number(process.argv[2]), tickMs: 50 });
process.stdout.write("ready\n");
process.on("SIGTERM", () => void device.close().then(() => process.exit(0)));
