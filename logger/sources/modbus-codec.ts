import { MODBUS_WORDS } from "./config.ts";
import type { ModbusAddress } from "./config.ts";
import { problemText } from "./problems.ts";

// The pure half of the Modbus TCP driver: which requests a poll makes (contiguous registers of one
// type merged into one request), how registers decode to a number and how a number encodes to
// registers. No I/O here, so all of it is unit-tested without a device.

export type Register = ModbusAddress["Register"];

/** Largest hole (in registers or bits) a merged request reads over rather than splitting. */
export const MAX_HOLE = 8;
/** Protocol limits per request: FC3/FC4 read at most 125 registers, FC1/FC2 at most 2000 bits. */
export const MAX_REGISTERS = 125;
export const MAX_BITS = 2000;

const isBit = (r: Register) => r === "coil" || r === "discrete";

/** Registers (or bits) one variable occupies. */
export const widthOf = (a: ModbusAddress) => (isBit(a.Register) ? 1 : MODBUS_WORDS[a.Type]);

export type ReadItem = { index: number; address: ModbusAddress };
export type ReadRequest = { register: Register; start: number; count: number; items: ReadItem[] };

/**
 * The requests one poll makes: per register type, the variables sorted by address and merged
 * while the gap to the next is at most `maxHole` and the request stays within the protocol limit.
 */
export function planReads(items: ReadItem[], maxHole = MAX_HOLE): ReadRequest[] {
  const requests: ReadRequest[] = [];
  const order: Register[] = ["holding", "input", "coil", "discrete"];
  for (const register of order) {
    const limit = isBit(register) ? MAX_BITS : MAX_REGISTERS;
    const mine = items.filter((i) => i.address.Register === register).sort((a, b) => a.address.Address - b.address.Address);
    let current: ReadRequest | null = null;
    for (const item of mine) {
      const start = item.address.Address;
      const end = start + widthOf(item.address); // exclusive
      if (current) {
        const currentEnd = current.start + current.count;
        const newEnd = Math.max(currentEnd, end);
        if (start - currentEnd <= maxHole && newEnd - current.start <= limit) {
          current.count = newEnd - current.start;
          current.items.push(item);
          continue;
        }
      }
      current = { register, start, count: end - start, items: [item] };
      requests.push(current);
    }
  }
  return requests;
}

/**
 * The bytes of `words` registers in the type's natural (big-endian) order. WordOrder "little"
 * means the first register holds the least significant word; ByteOrder "little" means each
 * register's two bytes are swapped.
 */
function toBytes(words: ArrayLike<number>, a: ModbusAddress): DataView {
  const n = words.length;
  const view = new DataView(new ArrayBuffer(n * 2));
  for (let i = 0; i < n; i++) {
    const w = words[a.WordOrder === "little" ? n - 1 - i : i]! & 0xffff;
    view.setUint16(i * 2, w, a.ByteOrder === "little");
  }
  return view;
}

/** The raw number held by the registers of one variable (before Scale and Offset). */
export function decodeRaw(words: ArrayLike<number>, a: ModbusAddress): number {
  const v = toBytes(words, a);
  switch (a.Type) {
    case "int16":
      return v.getInt16(0);
    case "uint16":
      return v.getUint16(0);
    case "int32":
      return v.getInt32(0);
    case "uint32":
      return v.getUint32(0);
    case "float32":
      return v.getFloat32(0);
    case "float64":
      return v.getFloat64(0);
  }
}

/** The engineering value: raw × Scale + Offset. */
export const scaled = (raw: number, a: ModbusAddress) => raw * a.Scale + a.Offset;

/** The value of one variable out of a request's answer (registers or bits from `start`). */
export function valueFrom(answer: ArrayLike<number | boolean>, start: number, a: ModbusAddress): number {
  const at = a.Address - start;
  if (isBit(a.Register)) return answer[at] ? 1 : 0;
  const words: number[] = [];
  for (let i = 0; i < MODBUS_WORDS[a.Type]; i++) words.push(Number(answer[at + i]));
  return scaled(decodeRaw(words, a), a);
}

/**
 * The registers that hold `value` for a holding-register output: (value − Offset) / Scale,
 * rounded and range-checked for the integer types. Throws a readable Error when it does not fit.
 */
export function encode(value: number, a: ModbusAddress): number[] {
  if (!Number.isFinite(value)) throw new Error(`Value ${value} is not a finite number`);
  const raw = (value - a.Offset) / a.Scale;
  const n = MODBUS_WORDS[a.Type];
  const be = new DataView(new ArrayBuffer(n * 2));
  const int = (min: number, max: number) => {
    const r = Math.round(raw);
    if (r < min || r > max) throw new Error(`Value ${value} gives ${r}, outside the ${a.Type} range ${min}..${max}`);
    return r;
  };
  switch (a.Type) {
    case "int16":
      be.setInt16(0, int(-0x8000, 0x7fff));
      break;
    case "uint16":
      be.setUint16(0, int(0, 0xffff));
      break;
    case "int32":
      be.setInt32(0, int(-0x80000000, 0x7fffffff));
      break;
    case "uint32":
      be.setUint32(0, int(0, 0xffffffff));
      break;
    case "float32":
      be.setFloat32(0, raw);
      break;
    case "float64":
      be.setFloat64(0, raw);
      break;
  }
  const words: number[] = [];
  for (let i = 0; i < n; i++) words.push(be.getUint16(i * 2, a.ByteOrder === "little"));
  return a.WordOrder === "little" ? words.reverse() : words;
}

const EXCEPTIONS: Record<number, string> = {
  1: "Illegal function",
  2: "Illegal data address",
  3: "Illegal data value",
  4: "Server device failure",
  5: "Acknowledge",
  6: "Server device busy",
  8: "Memory parity error",
  10: "Gateway path unavailable",
  11: "Gateway target device failed to respond",
};

/** A readable text for an error of modbus-serial or of the socket under it. */
export function describeError(e: unknown, where: string): string {
  const err = (e ?? {}) as { modbusCode?: number; code?: string; errno?: string | number; message?: string; name?: string };
  if (typeof err.modbusCode === "number") {
    return problemText("modbusException", { code: err.modbusCode, name: EXCEPTIONS[err.modbusCode] ?? "unknown exception" });
  }
  const code = typeof err.code === "string" ? err.code : typeof err.errno === "string" ? err.errno : "";
  if (err.name === "TransactionTimedOutError" || code === "ETIMEDOUT" || /timed out/i.test(err.message ?? "")) return problemText("timeout", { where });
  if (code === "ECONNREFUSED" && err.name !== "PortNotOpenError") return problemText("refused", { where });
  if (err.name === "PortNotOpenError") return problemText("closed", { where });
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return problemText("unreachable", { where });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return problemText("hostNotFound", { where });
  if (code === "ECONNRESET" || code === "EPIPE") return problemText("reset", { where });
  return err.message ? `${where}: ${err.message}` : `${where}: ${String(e)}`;
}
