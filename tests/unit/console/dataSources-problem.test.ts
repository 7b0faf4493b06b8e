import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { problemIn } from "~/services/logger/errors";
import { problemMessage } from "~/ui/dataSources/problem";
import en from "../../../app/locales/en/dataSources.json";
import itTexts from "../../../app/locales/it/dataSources.json";
import { PROBLEM_CODES } from "../../../logger/sources/problems.ts";

// A data source's connection error or a refused save/browse comes from the logger in English with
// a stable code beside it; an Italian page says it in Italian (issue 16 follow-up).

async function tOf(lng: "en" | "it") {
  const i = i18next.createInstance();
  await i.init({ lng, resources: { en: { translation: { dataSources: en } }, it: { translation: { dataSources: itTexts } } }, interpolation: { escapeValue: false } });
  return i.t.bind(i);
}

describe("data-source problems on the console", () => {
  it("every code the logger sends has a text in English and Italian", () => {
    const codes = [...PROBLEM_CODES, "sourceNameTaken", "deviceNameTaken"];
    for (const texts of [en, itTexts] as { problem: Record<string, string> }[]) expect(Object.keys(texts.problem).sort()).toEqual(codes.sort());
  });

  it("an Italian page shows the problem in Italian, an unknown code in the logger's words", async () => {
    const t = await tOf("it");
    expect(problemMessage(t, { Code: "refused", Args: { where: "opc.tcp://plc:4840" } }, "Connection refused by opc.tcp://plc:4840")).toBe("Connessione rifiutata da opc.tcp://plc:4840.");
    expect(problemMessage(t, { Code: "auth", Args: { where: "mqtt://b:1883" } }, "x")).toBe("mqtt://b:1883 ha rifiutato l'accesso: controlla nome utente e password.");
    expect(problemMessage(t, { Code: "sourceNameTaken", Args: { name: "Linea 1" } }, "x")).toBe("Un'altra sorgente dati si chiama già Linea 1.");
    expect(problemMessage(t, { Code: "somethingNew", Args: {} }, "Something new happened")).toBe("Something new happened");
    expect(problemMessage(t, null, "Connection refused by h:502")).toBe("Connection refused by h:502");
    expect(problemMessage(await tOf("en"), { Code: "timeout", Args: { where: "h:502" } }, "x")).toBe("No answer from h:502 (timeout).");
  });

  it("reads the logger's Problem beside ReturnState, ignoring malformed ones", () => {
    expect(problemIn({ Problem: { Code: "refused", Args: { where: "h", n: 2, bad: {} } }, ReturnState: { Value: -1 } })).toEqual({ Code: "refused", Args: { where: "h", n: 2 } });
    expect(problemIn({ ReturnState: { Value: -1 } })).toBeUndefined();
    expect(problemIn({ Problem: { Code: 3, Args: {} } })).toBeUndefined();
  });
});
