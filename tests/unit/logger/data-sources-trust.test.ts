import { describe, expect, it } from "vitest";
import { OpcuaConnection } from "../../../logger/sources/config.ts";

// An OPC UA source's choice about the server's certificate (decision 0010, "Server certificates").

const base = { Endpoint: "opc.tcp://plc:4840", SecurityMode: "Sign", SecurityPolicy: "Basic256Sha256" };
const hex = "3a".repeat(32);

describe("OPC UA certificate trust", () => {
  it("trusts on first use unless told otherwise", () => {
    expect(OpcuaConnection.parse({ Endpoint: "opc.tcp://plc:4840" })).toMatchObject({ Trust: "firstUse", Fingerprint: "" });
  });

  it("requires a SHA-256 fingerprint, written with or without colons, and security to check it with", () => {
    expect(OpcuaConnection.parse({ ...base, Trust: "fingerprint", Fingerprint: hex }).Fingerprint).toBe(Array(32).fill("3A").join(":"));
    expect(OpcuaConnection.parse({ ...base, Trust: "fingerprint", Fingerprint: Array(32).fill("3a").join(" ") }).Fingerprint).toBe(Array(32).fill("3A").join(":"));
    const issues = (c: object) => OpcuaConnection.safeParse(c).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(issues({ ...base, Trust: "fingerprint" })).toEqual(["Fingerprint: Fingerprint must not be empty when Trust is fingerprint"]);
    expect(issues({ ...base, Trust: "fingerprint", Fingerprint: "12:34" })[0]).toMatch(/^Fingerprint: Fingerprint must be a SHA-256 fingerprint/);
    expect(issues({ Endpoint: base.Endpoint, Trust: "fingerprint", Fingerprint: hex })[0]).toMatch(/^Trust: Trust fingerprint needs SecurityMode Sign or SignAndEncrypt/);
  });
});
