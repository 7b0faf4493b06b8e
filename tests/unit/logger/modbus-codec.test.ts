import { describe, expect, it } from "vitest";
import type { ModbusAddress } from "../../../logger/sources/config.ts";
import { decodeRaw, describeError, encode, MAX_BITS, MAX_REGISTERS, planReads, valueFrom } from "../../../logger/sources/modbus-codec.ts";

const addr = (a: Partial<ModbusAddress>): ModbusAddress => ({ Register: "holding", Address: 0, Type: "uint16", WordOrder: "big", ByteOrder: "big", Scale: 1, Offset: 0, ...a });

describe("Modbus decoding", () => {
  // 0x12345678 in the four layouts: ABCD, CDAB (word swap), BADC (byte swap), DCBA (both).
  const layouts: [ModbusAddress["WordOrder"], ModbusAddress["ByteOrder"], number[]][] = [
    ["big", "big", [0x1234, 0x5678]],
    ["little", "big", [0x5678, 0x1234]],
    ["big", "little", [0x3412, 0x7856]],
    ["little", "little", [0x7856, 0x3412]],
  ];
  it.each(layouts)("uint32 with word order %s, byte order %s", (WordOrder, ByteOrder, words) => {
    const a = addr({ Type: "uint32", WordOrder, ByteOrder });
    expect(decodeRaw(words, a)).toBe(0x12345678);
    expect(encode(0x12345678, a)).toEqual(words);
  });

  it("int16 and uint16, with a byte swap", () => {
    expect(decodeRaw([0xfffe], addr({ Type: "int16" }))).toBe(-2);
    expect(decodeRaw([0xfffe], addr({ Type: "uint16" }))).toBe(65534);
    expect(decodeRaw([0x3412], addr({ Type: "uint16", ByteOrder: "little" }))).toBe(0x1234);
    expect(encode(-2, addr({ Type: "int16" }))).toEqual([0xfffe]);
  });

  it("int32 negative", () => {
    expect(decodeRaw([0xffff, 0xff85], addr({ Type: "int32" }))).toBe(-123);
    expect(encode(-123, addr({ Type: "int32", WordOrder: "little" }))).toEqual([0xff85, 0xffff]);
  });

  it("float32 and float64 in every order round-trip", () => {
    for (const [WordOrder, ByteOrder] of layouts) {
      const f32 = addr({ Type: "float32", WordOrder, ByteOrder });
      expect(decodeRaw(encode(-3.5, f32), f32)).toBe(-3.5);
      const f64 = addr({ Type: "float64", WordOrder, ByteOrder });
      expect(decodeRaw(encode(Math.PI, f64), f64)).toBe(Math.PI);
    }
    // 1.5f = 0x3FC00000
    expect(decodeRaw([0x3fc0, 0x0000], addr({ Type: "float32" }))).toBe(1.5);
    expect(decodeRaw([0x0000, 0x3fc0], addr({ Type: "float32", WordOrder: "little" }))).toBe(1.5);
    // 1.0 = 0x3FF0000000000000; little word order reverses the four registers
    expect(decodeRaw([0, 0, 0, 0x3ff0], addr({ Type: "float64", WordOrder: "little" }))).toBe(1);
  });

  it("Scale and Offset apply on reading and are undone on writing", () => {
    const a = addr({ Type: "int16", Scale: 0.1, Offset: -20 });
    expect(valueFrom([0, 0, 250], 0, { ...a, Address: 2 })).toBeCloseTo(5);
    expect(encode(5, a)).toEqual([250]);
  });

  it("integer outputs outside the type's range are refused with a readable error", () => {
    expect(() => encode(70000, addr({ Type: "uint16" }))).toThrow(/outside the uint16 range 0..65535/);
    expect(() => encode(-1, addr({ Type: "uint32" }))).toThrow(/uint32/);
    expect(() => encode(Number.NaN, addr({}))).toThrow(/not a finite number/);
  });

  it("coils and discrete inputs read as 0/1", () => {
    expect(valueFrom([false, true], 0, addr({ Register: "coil", Address: 1 }))).toBe(1);
    expect(valueFrom([false, true], 0, addr({ Register: "discrete", Address: 0 }))).toBe(0);
  });
});

describe("Modbus request planning", () => {
  const items = (list: Partial<ModbusAddress>[]) => list.map((a, index) => ({ index, address: addr(a) }));

  it("contiguous registers of one type are read in one request", () => {
    const plan = planReads(items([{ Address: 0, Type: "float32" }, { Address: 2, Type: "float32" }, { Address: 4 }, { Address: 5, Type: "float64" }]));
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ register: "holding", start: 0, count: 9 });
  });

  it("small holes are read over, large ones split; register types never mix", () => {
    const plan = planReads(
      items([
        { Address: 0 },
        { Address: 9 }, // hole of 8: merged
        { Address: 30 }, // hole of 20: a new request
        { Register: "input", Address: 1 },
        { Register: "coil", Address: 3 },
        { Register: "coil", Address: 0 },
      ]),
    );
    expect(plan.map((r) => [r.register, r.start, r.count])).toEqual([
      ["holding", 0, 10],
      ["holding", 30, 1],
      ["input", 1, 1],
      ["coil", 0, 4],
    ]);
  });

  it("a request never exceeds 125 registers or 2000 bits", () => {
    const regs = planReads(items(Array.from({ length: 300 }, (_, i) => ({ Address: i }))));
    expect(regs.map((r) => r.count)).toEqual([MAX_REGISTERS, MAX_REGISTERS, 50]);
    const bits = planReads(items(Array.from({ length: 2500 }, (_, i) => ({ Register: "coil" as const, Address: i }))));
    expect(bits.map((r) => r.count)).toEqual([MAX_BITS, 500]);
    // a float64 that would cross the limit starts the next request
    const edge = planReads(items([{ Address: 0 }, { Address: 123, Type: "float64" }]));
    expect(edge.map((r) => [r.start, r.count])).toEqual([
      [0, 1],
      [123, 4],
    ]);
  });
});

describe("Modbus error texts", () => {
  it("names exception codes, refusals and timeouts", () => {
    expect(describeError(Object.assign(new Error("x"), { modbusCode: 2 }), "h:502")).toBe("Modbus exception 2 (Illegal data address)");
    expect(describeError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "h:502")).toBe("Connection refused by h:502");
    expect(describeError({ name: "TransactionTimedOutError", message: "Timed out", errno: "ETIMEDOUT" }, "h:502")).toBe("No answer from h:502 (timeout)");
  });
});
