import type { Page } from "@playwright/test";
import WebSocket from "ws";
import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { VNC_PASSWORD, VncServer } from "./vncServer";

// A real VNC server (Xvfb + x11vnc) seen through the console's WebSocket proxy in noVNC.
// Targets are global state: each test removes what it added.

const vnc = new VncServer(500 + (Number(process.env.E2E_PORT) % 400));
test.beforeAll(async () => {
  await vnc.start("red");
});
test.afterAll(async () => {
  await vnc.stop();
});

/** The colour in the middle of noVNC's canvas. */
async function centrePixel(page: Page): Promise<number[]> {
  return page.getByTestId("vnc-screen").locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext("2d")!;
    return [...ctx.getImageData(Math.floor(canvas.width / 2), Math.floor(canvas.height / 2), 1, 1).data].slice(0, 3);
  });
}

async function addTarget(page: Page, name: string, port: number, password: string) {
  await page.goto("/vncview");
  await page.getByRole("link", { name: "Add target" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Host").fill("127.0.0.1");
  await page.getByLabel("Port").fill(String(port));
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Add target" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("VNC target added.");
  const { Targets } = await rpc<{ Targets: { ID: number; Name: string }[] }>("VncAPI.List", {});
  return Targets.find((t) => t.Name === name)!.ID;
}

/** Opens the proxy WebSocket as a plain client; resolves how it ended. */
function probe(path: string, cookie?: string, origin?: string): Promise<string> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
    if (origin) headers.Origin = origin;
    const ws = new WebSocket(`ws://localhost:${process.env.E2E_PORT}${path}`, { headers });
    ws.on("unexpected-response", (_req, res) => resolve(`refused ${res.statusCode}`));
    ws.on("message", (m) => {
      resolve(`open ${Buffer.from(m as Buffer).toString("latin1").trim()}`);
      ws.close();
    });
    ws.on("error", (e) => resolve(`error ${e.message}`));
  });
}

test("shows the remote screen, follows it live, and reconnects after a loss", async ({ page }) => {
  test.setTimeout(60_000);
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const name = unique("xvfb");
  const id = await addTarget(page, name, vnc.port, VNC_PASSWORD);
  try {
    await page.goto("/vncview");
    await page.getByLabel("Target", { exact: true }).selectOption({ label: name });
    await expect(page.getByTestId("vnc-state")).toHaveText("Not connected");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(page.getByTestId("vnc-state")).toHaveText("Connected");
    await expect.poll(() => centrePixel(page)).toEqual([255, 0, 0]);

    // The screen follows the remote display.
    vnc.paint("blue");
    await expect.poll(() => centrePixel(page)).toEqual([0, 0, 255]);

    // Toggles and buttons act on the live connection.
    await page.getByLabel("View only").check();
    await expect(page.getByRole("button", { name: "Send Ctrl-Alt-Del" })).toBeDisabled();
    await page.getByLabel("View only").uncheck();
    await expect(page.getByRole("button", { name: "Send Ctrl-Alt-Del" })).toBeEnabled();
    await page.getByLabel("Text to send").fill("hello from the console");
    await page.getByRole("button", { name: "Send to remote" }).click();

    // The server goes away: the page says it retries, and reconnects once it is back.
    await vnc.stopVnc();
    await expect(page.getByTestId("vnc-state")).toContainText("Reconnecting in");
    vnc.paint("lime");
    await vnc.startVnc();
    await expect(page.getByTestId("vnc-state")).toHaveText("Connected", { timeout: 15_000 });
    await expect.poll(() => centrePixel(page)).toEqual([0, 255, 0]);

    await page.getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByTestId("vnc-state")).toHaveText("Disconnected");
  } finally {
    await rpc("VncAPI.Remove", { ID: id });
    vnc.paint("red");
  }
});

test("the proxy refuses unknown targets, callers without a session and other origins", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const name = unique("xvfb");
  const id = await addTarget(page, name, vnc.port, VNC_PASSWORD);
  try {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    // The proxy does the VNC authentication itself: the browser is offered security type None.
    expect(await probe(`/vncview/ws?target=${id}`, cookie)).toBe("open RFB 003.008");
    expect(await probe(`/vncview/ws?target=999999`, cookie)).toBe("refused 404");
    expect(await probe(`/vncview/ws?target=127.0.0.1:${vnc.port}`, cookie)).toBe("refused 400");
    expect(await probe(`/vncview/ws?target=${id}`)).toBe("refused 401");
    // A page of another site cannot ride on the cookie.
    expect(await probe(`/vncview/ws?target=${id}`, cookie, "http://evil.example")).toBe("refused 403");
    // Any signed-in user may view (spec §6: VNC view needs no permission)…
    const role = await createRole(["ViewDashboards"]);
    const user = await createUser(role.id);
    const other = await page.context().browser()!.newContext();
    const otherPage = await other.newPage();
    await signInDirect(otherPage, user.username, user.password);
    const userCookie = (await other.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    expect(await probe(`/vncview/ws?target=${id}`, userCookie)).toBe("open RFB 003.008");
    // …but not configure targets.
    await otherPage.goto("/vncview");
    await expect(otherPage.getByRole("link", { name: "Add target" })).toHaveCount(0);
    const post = await otherPage.request.post("/vncview", { form: { intent: "remove", id: String(id), confirm: "yes" }, headers: { Origin: `http://localhost:${process.env.E2E_PORT}` }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
    await other.close();
    // The password never reaches a browser.
    const html = await (await page.request.get("/vncview")).text();
    expect(html).not.toContain(VNC_PASSWORD);
    expect(html).toContain(name);
  } finally {
    await rpc("VncAPI.Remove", { ID: id });
  }
});
