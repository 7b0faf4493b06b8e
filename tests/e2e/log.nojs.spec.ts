import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Log Messages with JavaScript on and off: filters and paging live in the URL, the maintenance
// notice is a plain form, the header popover a <details>.

const post = (m: Record<string, unknown>) => rpc("GI.system/MessagingAPI.PostMessage", m);

test("filters and pages messages, exports CSV", async ({ page }) => {
  const sender = unique("Plant");
  for (let i = 0; i < 30; i++) await post({ Sender: sender, Topic: i % 2 ? "Odd" : "Even", Type: i % 3 ? "Info" : "Warning", Text: `Reading ${i} done` });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/log");
  await page.getByLabel("Sender").fill(sender);
  await page.getByLabel("Per page").selectOption("25");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`sender=${sender}.*limit=25`));
  await expect(page.getByTestId("message-total")).toHaveText("30 messages");
  const rows = page.getByTestId("messages-table").locator("tr[data-message]");
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText("Reading 29 done");
  await page.getByTestId("messages-pager").getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/offset=25/);
  await expect(rows).toHaveCount(5);
  await expect(rows.last()).toContainText("Reading 0 done");

  await page.goto(`/log?sender=${sender}&type=Warning&topic=Even`);
  await expect(page.getByTestId("message-total")).toHaveText("5 messages");
  await page.goto(`/log?sender=${sender}&text=reading 1`);
  // "Reading 1 done" and "Reading 10…19 done": a case-insensitive substring.
  await expect(page.getByTestId("message-total")).toHaveText("11 messages");

  await page.goto(`/log?sender=${unique("nobody")}`);
  await expect(page.getByTestId("messages-empty")).toContainText("No new messages as of now!");
  await page.goto("/log?from=yesterday");
  await expect(page.getByText("Enter a date and time.")).toBeVisible();

  const csv = await page.request.get(`/log/export?sender=${sender}&type=Warning`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const body = Buffer.from(await csv.body());
  // A byte order mark, so spreadsheet programs read the file as UTF-8.
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = body.subarray(3).toString("utf8").trim().split("\r\n");
  expect(lines[0]).toBe("Timestamp,Sender,Topic,Type,Text,Args");
  expect(lines).toHaveLength(11);
  expect(lines[1]).toContain(`${sender},Odd,Warning,Reading 27 done`);
});

test("the header popover lists the latest messages", async ({ page }) => {
  const text = `Latest ${unique("note")}`;
  await post({ Sender: "Plant", Topic: "Shift", Type: "Info", Text: text });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/versionInfo");
  await page.getByTestId("messages-popover").click();
  await expect(page.getByText(text)).toBeVisible();
  await page.getByRole("link", { name: "All messages" }).click();
  await expect(page).toHaveURL(/\/log$/);
});

test("an administrator starts and stops a maintenance notice; the banner follows it", async ({ page }) => {
  const text = `Filter change ${unique("m")}`;
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/log");
  const card = page.getByTestId("maintenance-card");
  try {
    await card.getByRole("button", { name: "Start maintenance notice" }).click();
    await expect(card.getByText("Enter the text of the notice.")).toBeVisible();
    await card.getByLabel("Notice text").fill(text);
    await card.getByLabel("Severity").selectOption("Error");
    await card.getByRole("button", { name: "Start maintenance notice" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Maintenance notice started");
    const banner = page.getByTestId("maintenance-banner");
    await expect(banner).toContainText(text);
    await expect(banner).toHaveAttribute("data-severity", "error");
    await page.goto("/settings");
    await expect(banner).toContainText(text);
    await page.goto("/log");
    await card.getByRole("button", { name: "Stop maintenance notice" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Maintenance notice stopped");
    await expect(page.getByTestId("maintenance-banner")).toHaveCount(0);
  } finally {
    const { Messages } = await rpc<{ Messages: { Topic: string; Text: string; Args: string[] }[] }>("GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Maintainer" }, Limit: 1 });
    if (Messages[0]?.Args[0] === "Start") await post({ Sender: "Maintainer", Topic: Messages[0].Topic, Type: "Info", Text: Messages[0].Text, Args: ["Stop"] });
  }
});
