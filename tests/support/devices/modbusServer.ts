import type { Server, Socket } from "node:net";
import { ServerTCP } from "modbus-serial";
import { freePort, listenOnFreePort } from "../freePort.ts";

// A Modbus TCP device for tests, the benchmark and the README's demo (scripts/demo-devices.ts),
// served by modbus-serial's ServerTCP. Register map (unit id any):
//   holding 0-1    float32 (big word, big byte order): 10 × sin(2π t / 10 s), changes every tick
//   holding 2-3    the same float32 with little word order (CDAB)
//   holding 100    a setpoint (uint16), writable
//   holding 0-999  readable (free for tests to fill with setRegisters); 1000+ → exception 2
//   input   0      uint16 counter, +1 every tick (wraps at 65536)
//   input   1-2    uint32 counter (big word order), +1 every tick
//   input   10-109 100 uint16 registers each = (counter + i) mod 65536 (the benchmark's)
//   coil    0-15   writable, read back as written
//   discrete 0     toggles every second; discrete 1-15 are 0
// Every request is recorded (function code, start, count) from the wire, so tests can count
// them, and every write (register or coil) is recorded in `writes`.

export type ModbusRequest = { fc: number; start: number; count: number };
export type ModbusWrite = { kind: "coil" | "register"; address: number; values: number[] };

export type ModbusDevice = {
  port: number;
  holding: Uint16Array;
  input: Uint16Array;
  coils: Uint8Array;
  discrete: Uint8Array;
  requests: ModbusRequest[];
  writes: ModbusWrite[];
  /** Sets registers directly (tests' fixed patterns). */
  setRegisters(kind: "holding" | "input", address: number, words: number[]): void;
  /** Stops answering (closes the listener and every connection); data is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Stops for good (also the value ticker). */
  close(): Promise<void>;
};

const SIZE = 1000;

// ServerTCP takes port 0 as "502": the tests give it a free one.
export { freePort };

function illegalAddress(): never {
  throw Object.assign(new Error("Illegal data address"), { modbusErrorCode: 2 });
}

/** Records every request's function code, start and count as it arrives on a socket. */
function recordRequests(sock: Socket, requests: ModbusRequest[]): void {
  let buf = Buffer.alloc(0);
  sock.on("data", (data: Buffer) => {
    buf = Buffer.concat([buf, data]);
    while (buf.length >= 8) {
      const len = buf.readUInt16BE(4);
      if (buf.length < 6 + len) break;
      const fc = buf[7]!;
      const start = len >= 4 ? buf.readUInt16BE(8) : 0;
      const count = fc === 5 || fc === 6 ? 1 : len >= 6 ? buf.readUInt16BE(10) : 0;
      requests.push({ fc, start, count });
      buf = buf.subarray(6 + len);
    }
  });
}

export async function startModbusServer(o: { port?: number; host?: string; tickMs?: number } = {}): Promise<ModbusDevice> {
  let port = 0;
  const host = o.host ?? "127.0.0.1";
  const tickMs = o.tickMs ?? 100;
  const holding = new Uint16Array(SIZE);
  const input = new Uint16Array(SIZE);
  const coils = new Uint8Array(16);
  const discrete = new Uint8Array(16);
  const requests: ModbusRequest[] = [];
  const writes: ModbusWrite[] = [];
  const t0 = Date.now();
  let counter = 0;

  const tick = () => {
    const t = (Date.now() - t0) / 1000;
    const f = Buffer.alloc(4);
    f.writeFloatBE(10 * Math.sin((2 * Math.PI * t) / 10));
    holding[0] = f.readUInt16BE(0);
    holding[1] = f.readUInt16BE(2);
    holding[2] = f.readUInt16BE(2);
    holding[3] = f.readUInt16BE(0);
    counter = (counter + 1) >>> 0;
    input[0] = counter & 0xffff;
    input[1] = counter >>> 16;
    input[2] = counter & 0xffff;
    for (let i = 0; i < 100; i++) input[10 + i] = (counter + i) & 0xffff;
    discrete[0] = Math.floor(t) % 2;
  };
  tick();
  const ticker = setInterval(tick, tickMs);
  ticker.unref();

  const reg = (a: Uint16Array) => (addr: number) => (addr < SIZE ? a[addr]! : illegalAddress());
  const regs = (a: Uint16Array) => (addr: number, n: number) => (addr + n <= SIZE ? Array.from(a.subarray(addr, addr + n)) : illegalAddress());
  const bit = (a: Uint8Array) => (addr: number) => (addr < a.length ? a[addr] === 1 : illegalAddress());
  const vector = {
    getHoldingRegister: reg(holding),
    getMultipleHoldingRegisters: regs(holding),
    getInputRegister: reg(input),
    getMultipleInputRegisters: regs(input),
    getCoil: bit(coils),
    getDiscreteInput: bit(discrete),
    setRegister: (addr: number, value: number) => {
      if (addr >= SIZE) illegalAddress();
      holding[addr] = value;
      writes.push({ kind: "register", address: addr, values: [value] });
    },
    setRegisterArray: (addr: number, values: number[]) => {
      if (addr + values.length > SIZE) illegalAddress();
      holding.set(values, addr);
      writes.push({ kind: "register", address: addr, values: [...values] });
    },
    setCoil: (addr: number, value: boolean) => {
      if (addr >= coils.length) illegalAddress();
      coils[addr] = value ? 1 : 0;
      writes.push({ kind: "coil", address: addr, values: [value ? 1 : 0] });
    },
  };

  let server: ServerTCP | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = new ServerTCP(vector, { host, port, unitID: 255 });
      s.on("initialized", () => {
        server = s;
        resolve();
      });
      // (serverError is emitted but missing from modbus-serial's typings)
      (s as unknown as NodeJS.EventEmitter).on("serverError", (e: Error) => reject(e));
      s.on("socketError", () => {});
      s.on("error", () => {});
      // ServerTCP keeps its net.Server private; the wire-level request log needs its sockets.
      (s as unknown as { _server: Server })._server.on("connection", (sock: Socket) => recordRequests(sock, requests));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      if (!s) return resolve();
      s.close(() => resolve());
    });

  port = await listenOnFreePort(o.port, (p) => {
    port = p;
    return listen();
  });
  return {
    port,
    holding,
    input,
    coils,
    discrete,
    requests,
    writes,
    setRegisters(kind, address, words) {
      (kind === "holding" ? holding : input).set(words, address);
    },
    stop,
    start: listen,
    async close() {
      clearInterval(ticker);
      await stop();
    },
  };
}
