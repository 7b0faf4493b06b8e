import { LOGGER, createRole, createUser, expect, signInDirect, test, token } from "./fixtures";

// Issue 24 §3: the logger gives a user at most 2 large reads at once and keeps a third waiting for
// 5 s, then answers 429 with Retry-After. The Export screen says so in the user's words (here
// without JavaScript: the form post comes back to the form with the message).

type Var = { Id: string; Name: string; SourceId: string };

test("an export while the user's large reads are all taken says when to try again", async ({ page }) => {
  test.setTimeout(60_000);
  const role = await createRole(["UseExport"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  // The same user straight at the logger (a bench script, say): two exports it stops reading.
  const bearer = await token(user.username, user.password);
  const vars = (await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${bearer}` } })).json()) as { Data: Var[] };
  const oil = vars.Data.find((v) => v.Name === "Oil temperature")!;
  const held: AbortController[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const ac = new AbortController();
      held.push(ac);
      const res = await fetch(`${LOGGER}/history/data`, {
        method: "POST",
        headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
        // An hour at 100 Hz as CSV: 360,000 rows, a large read.
        body: JSON.stringify({ Start: -3_600_000, End: 0, Variables: [{ SID: oil.SourceId, VID: oil.Id }], Format: "csv" }),
        signal: ac.signal,
      });
      expect(res.status).toBe(200);
      await res.body!.getReader().read();
    }
    await page.goto("/export");
    const form = page.getByTestId("export-form");
    await form.getByLabel("Oil temperature [°C]").check();
    await form.getByRole("radio", { name: "Last" }).check();
    await form.getByRole("combobox", { name: "Last" }).selectOption({ label: "1 h" });
    await form.getByRole("button", { name: "Download CSV" }).click();
    await expect(page.getByText("The logger is busy with other large exports and reads. Try again in 5 s.")).toBeVisible({ timeout: 20_000 });
    await expect(form.getByLabel("Oil temperature [°C]")).toBeChecked();
  } finally {
    for (const ac of held) ac.abort();
  }
  // Once those are gone the same export goes through.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-form").getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/Oil-temperature.*\.csv$/);
});
