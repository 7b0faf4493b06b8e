// `node tests/support/devices/opcuaServerProcess.ts`: the test OPC UA device in a process of its
// own, so a test can freeze it (SIGSTOP) like a hung device. Prints "ready <port>" once listening.
// It takes a free port itself, and another if that one is taken before it listens
// (startOpcuaServer): a port chosen by the test and handed over was taken meanwhile by a suite
// running beside it (EADDRINUSE in a fresh-clone run).
import { startOpcuaServer } from "./opcuaServer.ts";

const device = await startOpcuaServer({ tickMs: 50 });
process.stdout.write(`ready ${device.port}\n`);
process.on("SIGTERM", () => void device.close().then(() => process.exit(0)));
