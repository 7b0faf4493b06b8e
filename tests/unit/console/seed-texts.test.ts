import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "~/locales/en";
import itTexts from "~/locales/it";
import { seedText } from "~/ui/seedTexts";
import { permissionText } from "~/ui/users/permissionText";
import { PERMISSIONS } from "~/features";
import { ADMIN_PASSWORD, login, rpc, start, type TestLogger } from "../logger/helpers";

// Issue 28 §5: the logger's demo content shown in the reader's language; permissions named by the menu's names.

async function translator(lng: "en" | "it") {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { en: { translation: en }, it: { translation: itTexts } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

describe("the demo content a new installation gets", () => {
  let logger: TestLogger;
  let admin: string;
  beforeAll(async () => {
    logger = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 1 } });
    admin = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => logger.stop());

  it("has an Italian text for every name, title, lamp label, note, role description and metadata key it seeds", async () => {
    const t = await translator("it");
    const seeded: string[] = [];
    for (const d of (await rpc(logger.url, "WebUIAPI.List", {}, admin)).body.List) {
      seeded.push(d.Name);
      const { Content } = (await rpc(logger.url, "WebUIAPI.GetDashboard", { ID: d.ID }, admin)).body.Dashboard;
      for (const w of Content.Widgets) {
        if (w.Title) seeded.push(w.Title);
        for (const s of w.Options.States ?? []) seeded.push(s.Label);
        if (w.Options.Text) seeded.push(w.Options.Text);
      }
    }
    for (const r of (await rpc(logger.url, "GI.system/UserManagementAPI.GetRoles", {}, admin)).body.Roles) seeded.push(r.Description);
    for (const m of (await rpc(logger.url, "MetaDataAPI.GetMetaData", {}, admin)).body.MetaData) seeded.push(m.Key);
    for (const m of (await rpc(logger.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Logger" } }, admin)).body.Messages) seeded.push(m.Text);
    expect(seeded.length).toBeGreaterThan(15);
    expect(seeded.filter((s) => seedText(t, s) === s)).toEqual([]);
    expect(seedText(t, "Test cell dashboard")).toBe("Dashboard cella di prova");
    // The English reader sees the same words; a name someone changed stays as it is.
    const tEn = await translator("en");
    expect(seeded.filter((s) => seedText(tEn, s) !== s)).toEqual([]);
    expect(seedText(t, "Test cell dashboard (mine)")).toBe("Test cell dashboard (mine)");
  });
});

describe("permission descriptions", () => {
  it("name screens as the menu does, in each language", async () => {
    const t = await translator("it");
    expect(permissionText(t, "ManageDashboards")).toContain("Gestione dashboard");
    expect(permissionText(t, "UseMetaData")).toContain("Panoramica variabili");
    expect(permissionText(t, "UseMetaData")).toContain("Esplora misure");
    const english = ["Dashboard Manager", "Analytics", "Struct View", "Variable Overview", "Measurement Explorer", "Simple Config", "Project State", "Role Management", "User Management", "Global Settings"];
    const all = PERMISSIONS.map((p) => permissionText(t, p));
    expect(all.filter((text) => english.some((name) => text.includes(name)))).toEqual([]);
    expect(all.filter((text) => text.includes("{{"))).toEqual([]);
    expect(permissionText(await translator("en"), "ViewAnalytics")).toBe("Analyse recorded data in Analytics.");
  });
});
