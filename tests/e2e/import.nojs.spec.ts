import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { TYPE } from "../../logger/udbf/format.ts";
import { parseHeader, UdbfReader } from "../../logger/udbf/reader.ts";
import { UdbfRows, udbfHeader } from "../../logger/udbf/writer.ts";
import type { UdbfVariable } from "../../logger/udbf/writer.ts";
import { ADMIN_PASSWORD, LOGGER, expect, signInDirect, test, token, unique } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";
import { expectAccessible } from "./axe";

// The Import screen, UDBF downloads and data files in the file browser (issue 27), with
// JavaScript (XHR upload with progress, fetch import with progress) and without (plain
// multipart post and redirects): the same clicks work in both projects.

/** A UDBF file as the family's controllers record it: rows of [epoch µs, ...values]. */
function udbf(vars: UdbfVariable[], rateHz: number, rows: number[][]): Buffer {
  const header = udbfHeader(vars, rateHz, rows[0]![0]! / 1000);
  const enc = new UdbfRows(header, vars.map((v) => v.type), rows.length);
  for (const row of rows) {
    enc.time(row[0]!);
    row.slice(1).forEach((v, i) => enc.value(i, v));
  }
  return Buffer.concat([header.bytes, enc.take()]);
}

const BENCH: UdbfVariable[] = [
  { name: "Bench valve", unit: "", direction: 1, type: TYPE.boolean, precision: 0 },
  { name: "Bench current", unit: "mA", direction: 0, type: TYPE.f32, precision: 3 },
];
/** 500 rows at 100 Hz from a day in 2015, time stamps a little off the grid as the family's are. */
function benchFile(): Buffer {
  const t0 = Date.UTC(2015, 3, 7, 8) * 1000;
  return udbf(BENCH, 100, Array.from({ length: 500 }, (_, i) => [t0 + i * 10_000 + (i % 3) * 0.14, i % 2, Math.fround(4 + i / 100)]));
}

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, sourceName: string, measurement: string) {
  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Import" })).toBeVisible();
  const form = page.getByTestId("import-upload");
  await form.getByLabel("Name of a new source").fill(sourceName);
  await form.getByLabel("Measurement name").fill(measurement);
  await form.getByLabel("Data file").setInputFiles(file);
  await form.getByRole("button", { name: "Upload and preview" }).click();
}

async function measurementNamed(name: string): Promise<{ Id: string; Name: string } | undefined> {
  const auth = { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` };
  const sources = ((await (await fetch(`${LOGGER}/history/structure/sources`, { headers: auth })).json()) as { Data: { Id: string }[] }).Data;
  for (const s of sources) {
    const list = (await (await fetch(`${LOGGER}/history/structure/sources/${s.Id}/measurements`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: "{}" })).json()) as { Data: { Id: string; Name: string }[] };
    const m = list.Data.find((x) => x.Name === name);
    if (m) return m;
  }
  return undefined;
}

test("imports a UDBF recording: preview of variables, span and rows, then a measurement to open", async ({ page, javaScriptEnabled }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const name = unique("Bench 2015 ");
  await upload(page, { name: "bench.dat", mimeType: "application/octet-stream", buffer: benchFile() }, unique("Bench "), name);
  const preview = page.getByTestId("data-preview");
  await expect(preview.getByTestId("preview-rows")).toHaveText("500");
  await expect(preview.getByTestId("preview-variables")).toContainText("Bench valve");
  await expect(preview.getByTestId("preview-variables")).toContainText("boolean");
  await expect(preview.getByTestId("preview-variables")).toContainText("mA");
  await expect(preview.getByTestId("preview-first-rows").getByRole("row")).toHaveCount(11);
  await expect(preview.getByTestId("preview-chart").getByTestId("svg-plot")).toBeVisible();
  // The user's time zone (admin: the browser's UTC here) and the file's own year.
  await expect(preview.getByTestId("preview-first")).toContainText("2015");
  // Nothing stored before the import.
  expect(await measurementNamed(name)).toBeUndefined();
  // axe runs inside the page: with JavaScript only.
  if (javaScriptEnabled) await expectAccessible(page, "the import preview");
  await page.getByTestId("import-commit").getByRole("button", { name: "Import" }).click();
  const done = page.getByTestId("import-done");
  await expect(done).toContainText(`Imported 500 rows as measurement ${name}.`);
  await expect(done.getByRole("link", { name: "Open in Analytics" })).toHaveAttribute("href", /span=measurement/);
  await done.getByRole("link", { name: "Open in Analytics" }).click();
  // The imported variables are charted over the measurement (from 2015).
  await expect(page.getByLabel("Bench current [mA]").first()).toBeChecked();
  // The server's chart, which the interactive one replaces once its script has loaded.
  await expect(page.getByTestId(javaScriptEnabled ? "uplot-chart" : "svg-plot").first()).toBeVisible();
  await page.goBack();
  await page.getByTestId("import-done").getByRole("link", { name: "Open in Measurement Explorer" }).click();
  await expect(page.getByTestId("measurement-details").getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("measurement-details")).toContainText("Bench current [mA]");
});

test("imports the vendor's CSV: detected layout, a wrong choice shown before anything is stored, then the import", async ({ page, javaScriptEnabled }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const bom = "\ufeff";
  const text = [`${bom}Zeit;Druck;Temperatur`, `${bom};bar;°C`, ...Array.from({ length: 40 }, (_, i) => `${bom}01.02.2024 10:00:${String(i).padStart(2, "0")};${i},5;${i % 4 ? `${20 + i},25` : "NaN"}`)].join("\r\n");
  const name = unique("Vendor CSV ");
  await upload(page, { name: "sample.csv", mimeType: "text/csv", buffer: Buffer.from(text) }, unique("Vendor "), name);
  const choices = page.getByTestId("csv-choices");
  await expect(choices.getByLabel("Column separator")).toHaveValue(";");
  await expect(choices.getByLabel("Decimal separator")).toHaveValue(",");
  await expect(choices.getByLabel("Line of units")).toHaveValue("2");
  await expect(page.getByTestId("preview-rows")).toHaveText("40");
  await expect(page.getByTestId("preview-variables")).toContainText("Temperatur");
  if (javaScriptEnabled) await expectAccessible(page, "the CSV import preview with its choices");
  // A point as decimal separator: the preview says where the import would stop.
  await choices.getByLabel("Decimal separator").selectOption(".");
  await choices.getByRole("button", { name: "Preview again" }).click();
  await expect(page.getByTestId("data-preview")).toContainText('cannot read "0,5"');
  await page.getByTestId("csv-choices").getByLabel("Decimal separator").selectOption(",");
  await page.getByTestId("csv-choices").getByRole("button", { name: "Preview again" }).click();
  await expect(page.getByTestId("data-preview")).not.toContainText("cannot read");
  await page.getByTestId("import-commit").getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-done")).toContainText(`Imported 40 rows as measurement ${name}.`);
  await expect(page.getByTestId("import-done").getByRole("link", { name: "Open in Analytics" })).toHaveAttribute("href", /span=measurement/);
});

test("a truncated UDBF file is refused with the logger's reason next to the file field; nothing is stored", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const whole = benchFile();
  const name = unique("Cut ");
  await upload(page, { name: "cut.dat", mimeType: "application/octet-stream", buffer: whole.subarray(0, whole.length - 3) }, unique("Cut source "), name);
  await expect(page.getByTestId("data-preview")).toContainText("it is cut short");
  await page.getByTestId("import-commit").getByRole("button", { name: "Import" }).click();
  const refusal = page.getByText(/The logger refused the file, nothing was stored: Byte \d+: the file ends \d+ bytes into row 500/);
  await expect(refusal).toBeVisible();
  expect(await measurementNamed(name)).toBeUndefined();
});

test("exports as UDBF from the Export screen and from the Measurement Explorer", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const m = await recordMeasurement("UDBF export ", 1000);
  const ids = await variableIds();
  await page.goto(`/export?v=${ids["Oil temperature"]}&v=${ids["Door closed"]}&span=measurement&m=${encodeURIComponent(m.ID)}`);
  const form = page.getByTestId("export-form");
  const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download UDBF" }).click()]);
  expect(download.suggestedFilename()).toMatch(/_raw\.dat$/);
  const bytes = new Uint8Array(await readFile((await download.path())!));
  const info = parseHeader(bytes)!;
  expect(info).toMatchObject({ version: 107, sampleRateHz: 100, timeType: TYPE.u64, timeFactor: 1e-9 });
  expect(info.variables.map((v) => `${v.Name}|${v.Unit}|${v.DataType}`)).toEqual(["Oil temperature|°C|8", `Door closed||${TYPE.boolean}`]);
  let rows = 0;
  let first = 0;
  const reader = new UdbfReader((us) => {
    if (rows++ === 0) first = us / 1000;
  });
  reader.push(bytes);
  reader.end();
  expect(Math.abs(rows - (m.End - m.Start) / 10)).toBeLessThanOrEqual(2);
  expect(Math.abs(first - m.Start)).toBeLessThan(20);

  await page.goto(`/measurementUI?id=${encodeURIComponent(m.ID)}`);
  const [whole] = await Promise.all([page.waitForEvent("download"), page.getByTestId("measurement-details").getByRole("button", { name: "Download UDBF" }).click()]);
  const all = parseHeader(new Uint8Array(await readFile((await whole.path())!)))!;
  expect(all.variables.length).toBeGreaterThan(2);
  expect(all.variables.map((v) => v.Name)).toContain("Oil temperature");
});

test("the file browser previews a recording in place and imports it as a measurement", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/fileBrowser");
  const file = `${unique("rec")}.dat`;
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: file, mimeType: "application/octet-stream", buffer: benchFile() });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("toast-success")).toHaveText(`${file} uploaded`);
  await page.locator(`tr[data-entry="${file}"]`).getByRole("link", { name: file }).click();
  const preview = page.getByTestId("preview");
  await expect(preview.getByTestId("preview-rows")).toHaveText("500");
  await expect(preview.getByTestId("preview-variables")).toContainText("Bench current");
  await expect(preview.getByTestId("preview-chart").getByTestId("svg-plot")).toBeVisible();
  await preview.getByRole("link", { name: "Import as measurement" }).click();
  await expect(page.getByTestId("preview-rows")).toHaveText("500");
  const name = unique("From files ");
  const commit = page.getByTestId("import-commit");
  await commit.getByLabel("Measurement name").fill(name);
  await commit.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-done")).toContainText(`Imported 500 rows as measurement ${name}.`);
});
