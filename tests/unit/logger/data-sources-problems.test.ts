import { describe, expect, it } from "vitest";
import { PROBLEM_CODES, problemOf, problemText } from "../../../logger/sources/problems.ts";
import type { ProblemArgs, ProblemCode } from "../../../logger/sources/problems.ts";

// A connection problem's English text (LastError, the trace log) reads back into the same stable
// code and arguments that DataSourceAPI.GetState answers with (Problem), so a console in another
// language can say it in its own words.

const SAMPLES: Record<Exclude<ProblemCode, "other">, ProblemArgs> = {
  refused: { where: "opc.tcp://plc:4840" },
  hostNotFound: { where: "mqtt://broker.local:1883" },
  unreachable: { where: "10.0.0.9:502" },
  reset: { where: "10.0.0.9:502" },
  closed: { where: "opc.tcp://plc:4840" },
  timeout: { where: "10.0.0.9:502" },
  auth: { where: "mqtts://broker:8883" },
  security: { where: "opc.tcp://plc:4840", mode: "Sign", policy: "Basic256Sha256" },
  certificateRejected: { where: "opc.tcp://plc:4840", detail: "BadCertificateUntrusted" },
  certificateNotTrusted: { where: "mqtts://broker:8883", detail: "self-signed certificate" },
  noKeepAlive: { where: "opc.tcp://plc:4840", seconds: 12 },
  modbusException: { code: 2, name: "illegal data address" },
  noDriver: { protocol: "modbus" },
  clientNotLoaded: { detail: "Cannot find module 'node-opcua-client'" },
};

describe("data-source problems", () => {
  it("every code's text reads back into the same code and arguments", () => {
    for (const code of PROBLEM_CODES) {
      if (code === "other") continue;
      expect(problemOf(problemText(code, SAMPLES[code])), code).toEqual({ Code: code, Args: SAMPLES[code] });
    }
  });

  it("a Modbus exception keeps its code when the driver adds what was being read", () => {
    expect(problemOf(`${problemText("modbusException", { code: 2, name: "illegal data address" })} reading holding 0..9`)).toEqual({ Code: "modbusException", Args: { code: 2, name: "illegal data address" } });
  });

  it("any other text is 'other', with the text as its detail", () => {
    expect(problemOf("opc.tcp://plc:4840: BadTooManySessions")).toEqual({ Code: "other", Args: { detail: "opc.tcp://plc:4840: BadTooManySessions" } });
  });
});
