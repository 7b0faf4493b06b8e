import { createRole, createUser, expect, rpc, test, unique } from "./fixtures";
import { italian } from "./preferences";
import { variableIds } from "./history";

// Issue 28 §5, as an Italian operator reads it: the demo content, an alarm's message (words and
// decimals), the logger's refusals and the permission descriptions in Italian; dates as the date
// fields write them.

test("the demo dashboard speaks Italian: its name, titles, lamp labels and note; dates as the date fields", async ({ page }) => {
  await italian(page);
  await page.goto("/dashboard");
  await expect(page.locator("html")).toHaveAttribute("lang", "it");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard cella di prova");
  await expect(page.locator('[data-widget="temperatures"] h2')).toHaveText("Temperature");
  await expect(page.locator('[data-widget="pressures"] h2')).toHaveText("Pressioni");
  await expect(page.locator('[data-widget="strain"] h2')).toHaveText("Estensimetri");
  await expect(page.locator('[data-widget="door"]')).toContainText(/Aperta|Chiusa/);
  await expect(page.locator('[data-widget="notes"]')).toContainText("Cella prova motori");
  // The range header reads as the date fields: dd/mm/yyyy hh:mm:ss.
  await expect(page.getByTestId("dashboard-range")).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} – \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
  // The menu's dashboard list too.
  const { List } = await rpc<{ List: { ID: string; Name: string; IsDefault: boolean }[] }>("WebUIAPI.List", {});
  const seeded = List.find((d) => d.Name === "Test cell dashboard")!;
  await expect(page.locator(`header a[href="/${seeded.ID}"], aside a[href="/${seeded.ID}"]`).first()).toHaveText("Dashboard cella di prova");
});

test("an alarm's default message is in Italian with Italian decimals, on Alarming and in Log Messages", async ({ page }) => {
  await italian(page);
  const name = unique("Idraulica ");
  // The oil is always far above -999.5 °C: the rule fires at once and stays active.
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: (await variableIds())["Oil temperature"], Type: "high", High: -999.5, Severity: "high" } });
  try {
    await expect.poll(async () => (await rpc<{ Alarms: { ID: number; Active: boolean }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ID)?.Active, { timeout: 15_000 }).toBe(true);
    await page.goto("/alarming");
    const text = page.locator(`tr[data-alarm="${name}"] [data-testid=alarm-text]`);
    await expect(text).toHaveText(new RegExp(`^${name}: Oil temperature = \\d+,\\d+ °C \\(limite -999,5\\)$`));
    await page.goto(`/log?sender=Alarming`);
    await expect(page.getByTestId("messages-table").getByTestId("message-text").filter({ hasText: name }).first()).toHaveText(new RegExp(`^${name}: Oil temperature = \\d+,\\d+ °C \\(limite -999,5\\)$`));
    await expect(page.getByTestId("messages-table").locator("tr").filter({ hasText: name }).first()).toContainText("[Attivato, Attivo, non riconosciuto]");
    // The header's latest messages too (said by the server for every page).
    await page.getByTestId("messages-popover").click();
    await expect(page.locator("details[data-menu] li").filter({ hasText: name }).first()).toContainText(new RegExp(`${name}: Oil temperature = \\d+,\\d+ °C \\(limite -999,5\\)`));
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID });
  }
});

test("the logger's refusals and the permission descriptions are in Italian", async ({ page }) => {
  await italian(page);
  const role = await createRole(["ViewDashboards"]);
  const holder = await createUser(role.id);
  await page.goto("/roleManagement");
  const row = page.getByRole("row").filter({ hasText: role.name });
  await row.getByRole("link", { name: "Elimina" }).click();
  await page.getByRole("button", { name: "Elimina ruolo" }).click();
  await expect(page.getByTestId("form-error")).toHaveText(`Il ruolo ${role.name} è ancora assegnato a: ${holder.username}`);
  // A permission's description names the screen as the Italian menu does.
  await page.goto("/roleManagement?add");
  await expect(page.getByText("Creare, modificare ed eliminare dashboard in Gestione dashboard.")).toBeVisible();
  await expect(page.getByText("Analizzare i dati registrati in Analisi.")).toBeVisible();
  // The seeded roles' descriptions.
  await expect(page.getByRole("row").filter({ hasText: "Accesso completo, compresi utenti, ruoli e impostazioni globali" })).toHaveCount(1);
});
