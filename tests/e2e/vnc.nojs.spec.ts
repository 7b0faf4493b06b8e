import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Runs with JavaScript on and off: the target administration is plain HTML forms; the viewer
// itself needs JavaScript and says so without it. Targets are global state: removed at the end.

const rowOf = (page: Page, name: string) => page.getByTestId("vnc-target-row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

async function targetId(name: string): Promise<number | undefined> {
  const { Targets } = await rpc<{ Targets: { ID: number; Name: string }[] }>("VncAPI.List", {});
  return Targets.find((t) => t.Name === name)?.ID;
}

test("an administrator adds, edits and removes VNC targets; bad input keeps what was typed", async ({ page }) => {
  const name = unique("plc");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  try {
    await page.goto("/vncview");
    await page.getByRole("link", { name: "Add target" }).click();
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Host").fill("http://10.0.0.5/");
    await page.getByLabel("Port").fill("70000");
    await page.getByLabel("Password", { exact: true }).fill("hunter22");
    await page.getByRole("button", { name: "Add target" }).click();
    await expect(page.getByText("Enter a host name or IP address, without scheme, port or path.")).toBeVisible();
    await expect(page.getByText("Enter a port between 1 and 65535.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(name);
    // A refused form never echoes the password back (with JavaScript it never left the page).
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue(test.info().project.name === "nojs" ? "" : "hunter22");

    await page.getByLabel("Host").fill("10.0.0.5");
    await page.getByLabel("Port").fill("5901");
    await page.getByLabel("Password", { exact: true }).fill("hunter22");
    await page.getByRole("button", { name: "Add target" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("VNC target added.");
    await expect(rowOf(page, name)).toContainText("10.0.0.5:5901");
    await expect(rowOf(page, name)).toContainText("Password set");
    // The password stays on the logger: not in the page.
    expect(await page.content()).not.toContain("hunter22");

    // A second target with the same name is refused by the logger, in its words.
    await page.getByRole("link", { name: "Add target" }).click();
    await page.getByLabel("Name").fill(name.toUpperCase());
    await page.getByLabel("Host").fill("plc.example.com");
    await page.getByRole("button", { name: "Add target" }).click();
    await expect(page.getByTestId("form-error")).toHaveText(`Another VNC target is already called ${name.toUpperCase()}`);
    await page.getByRole("link", { name: "Cancel" }).click();

    // Editing with an empty password keeps it; the box removes it.
    await rowOf(page, name).getByRole("link", { name: "Edit" }).click();
    await expect(page.getByLabel("Host")).toHaveValue("10.0.0.5");
    await page.getByLabel("Port").fill("5902");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("VNC target saved.");
    await expect(rowOf(page, name)).toContainText("10.0.0.5:5902");
    await expect(rowOf(page, name)).toContainText("Password set");
    await rowOf(page, name).getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Remove the stored password").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(rowOf(page, name)).toContainText("No password");

    // Without JavaScript the page lists the targets and says the viewer needs it.
    if (test.info().project.name === "nojs") {
      await expect(page.getByTestId("vnc-needs-js")).toHaveText(/The VNC viewer needs JavaScript/);
      await expect(page.getByTestId("vnc-viewer")).toHaveCount(0);
    } else {
      await expect(page.getByTestId("vnc-viewer")).toBeVisible();
      await expect(page.getByTestId("vnc-needs-js")).toHaveCount(0);
    }

    await rowOf(page, name).getByRole("link", { name: "Remove" }).click();
    await expect(page.getByText(`Remove the VNC target ${name}?`)).toBeVisible();
    await page.getByRole("button", { name: "Remove target" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("VNC target removed.");
    await expect(rowOf(page, name)).toHaveCount(0);
  } finally {
    const id = await targetId(name);
    if (id) await rpc("VncAPI.Remove", { ID: id });
  }
});

test("other users see the targets but cannot change them", async ({ page, baseURL }) => {
  const name = unique("hmi");
  const { ID } = await rpc<{ ID: number }>("VncAPI.Set", { Name: name, Host: "127.0.0.1", Port: 5999, Password: "pw" });
  try {
    const role = await createRole(["ViewDashboards"]);
    const user = await createUser(role.id);
    await signInDirect(page, user.username, user.password);
    expect((await page.goto("/vncview?add"))?.status()).toBe(200);
    await expect(rowOf(page, name)).toBeVisible();
    await expect(page.getByRole("link", { name: "Add target" })).toHaveCount(0);
    await expect(page.getByLabel("Host")).toHaveCount(0);
    await expect(rowOf(page, name).getByRole("link", { name: "Edit" })).toHaveCount(0);
    const post = await page.request.post("/vncview", { form: { intent: "add", name: unique("x"), host: "10.0.0.9", port: "5900" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
    expect(await targetId(name)).toBe(ID);
  } finally {
    await rpc("VncAPI.Remove", { ID });
  }
});
