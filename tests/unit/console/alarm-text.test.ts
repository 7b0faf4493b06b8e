import i18next from "i18next";
import { describe, expect, it } from "vitest";
import en from "~/locales/en";
import itTexts from "~/locales/it";
import { alarmMessageText, alarmText, type AlarmFields } from "~/ui/alarms/alarmText";

// Issue 28 §5: alarm messages in the reader's language and number format, from the rule's fields.

async function t(lng: "en" | "it") {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { en: { translation: en }, it: { translation: itTexts } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

const fields: AlarmFields = { Template: "", Rule: "Hydraulics high", Variable: "Hydraulic pressure", Value: 194.901, Unit: "bar", Precision: 1, Type: "high", High: 150, Low: null, RatePerSec: null, StaleSec: null, State: null };
const english = "Hydraulics high: Hydraulic pressure = 194.9 bar (limit 150)";

describe("alarm texts", () => {
  it("render the default message in Italian with Italian decimals, English unchanged", async () => {
    expect(alarmText(fields, english, { t: await t("it"), locale: "it-IT" })).toBe("Hydraulics high: Hydraulic pressure = 194,9 bar (limite 150)");
    expect(alarmText(fields, english, { t: await t("en"), locale: "en-US" })).toBe(english);
  });

  it("keep a rule's own words but write its numbers as the reader does; limits per rule type", async () => {
    const own = { ...fields, Template: "Pressione {variable} a {value} {unit} oltre {limit}!", Type: "range", Low: -2.5, High: 1500.25, Precision: 2 };
    expect(alarmText(own, "x", { t: await t("it"), locale: "it-IT" })).toBe("Pressione Hydraulic pressure a 194,90 bar oltre -2,5…1500,25!");
    expect(alarmText({ ...fields, Type: "rate", RatePerSec: 2.5 }, "x", { t: await t("it"), locale: "it-IT" })).toMatch(/\(limite 2,5\/s\)$/);
    expect(alarmText({ ...fields, Value: null }, "x", { t: await t("en"), locale: "en-US" })).toBe("Hydraulics high: Hydraulic pressure = — bar (limit 150)");
  });

  it("fall back to the logger's text without fields", async () => {
    expect(alarmText(undefined, english, { t: await t("it"), locale: "it-IT" })).toBe(english);
  });

  it("say Alarming's messages in the reader's language", async () => {
    const say = { t: await t("it"), locale: "it-IT", dateTime: (v: string) => `<${v}>` };
    expect(alarmMessageText({ ...fields, Event: "Activated" }, "x", say)).toBe("Hydraulics high: Hydraulic pressure = 194,9 bar (limite 150)");
    expect(alarmMessageText({ ...fields, Event: "Cleared", Value: 120.04 }, "x", say)).toBe("Hydraulics high è rientrato nella norma (120,0 bar)");
    expect(alarmMessageText({ ...fields, Event: "Acknowledged", User: "olga", Comment: "visto" }, "x", say)).toBe("Hydraulics high riconosciuto da olga: visto");
    expect(alarmMessageText({ ...fields, Event: "Shelved", User: "olga", ShelvedUntil: "2026-11-27T15:00:00.000Z" }, "x", say)).toBe("Hydraulics high accantonato da olga fino a <2026-11-27T15:00:00.000Z>");
    expect(alarmMessageText({ ...fields, Event: "Whatever" }, "fallback", say)).toBe("fallback");
  });
});
