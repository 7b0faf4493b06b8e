import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_PASSWORD, createRole, createUser, expect, LOGGER, rpc, setGlobalSettings, signInDirect, signOut, test, token, unique } from "./fixtures";

// Runs with JavaScript on (Leaflet) and off (the server's SVG map). Device locations and the
// tile server are global state: each test puts them back in `finally`.

type Device = { ID: string; Name: string; Location: { Lat: number; Lon: number; Site?: string } | null };
const DEVICES = ["Test bench controller", "Power meter", "Weather station"];

async function devices(): Promise<Device[]> {
  return (await rpc<{ Devices: Device[] }>("DeviceAPI.GetDevices", {})).Devices;
}

async function setLocation(d: Device, location: Device["Location"]) {
  const MetaData = [
    { Key: "Latitude", Value: location ? String(location.Lat) : "" },
    { Key: "Longitude", Value: location ? String(location.Lon) : "" },
    { Key: "Site", Value: location?.Site ?? "" },
  ];
  await rpc("MetaDataAPI.SetMetaData", { Type: "device", ID: d.ID, MetaData });
}

/** A tile server on this machine: one small PNG for every tile, and a count of requests. */
async function stubTiles(): Promise<{ server: Server; template: string; requests: string[] }> {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "image/png", "Access-Control-Allow-Origin": "*" });
    res.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, template: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`, requests };
}

test("shows every device on the map and in the list, with state, values and a link to Project State", async ({ page, javaScriptEnabled }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/cockpit");
  await expect(page.getByRole("heading", { name: "Map" })).toBeVisible();
  await expect(page.getByTestId("map-legend")).toContainText("Online");

  const list = page.getByTestId("map-devices");
  for (const name of DEVICES) await expect(list.locator(`tr[data-device="${name}"]`)).toBeVisible();
  const meter = list.locator('tr[data-device="Power meter"]');
  await expect(meter.getByTestId("map-device-location")).toContainText("Maranello substation");
  // An administrator moves a device where all metadata is edited.
  const meterId = (await devices()).find((d) => d.Name === "Power meter")!.ID;
  await expect(meter.getByRole("link", { name: "Edit location: Power meter" })).toHaveAttribute("href", `/metadata?type=device&id=${meterId}`);
  await expect(meter.getByTestId("map-device-values")).toContainText(/Voltage L1: \d+\.\d V/);
  await expect(list.locator('tr[data-device="Test bench controller"]').getByTestId("map-device-values")).toContainText("Oil temperature");
  await expect(meter.getByTestId("map-device-state")).toHaveAttribute("data-state", /^(online|offline|stale|alarm)$/);

  if (javaScriptEnabled) {
    const map = page.getByTestId("leaflet-map");
    await expect(map).toBeVisible();
    await expect(page.getByTestId("svg-map")).toBeHidden();
    // The offline base layer: country shapes drawn by Leaflet, no tile images.
    await expect(map.locator("path.leaflet-interactive, .leaflet-overlay-pane path").first()).toBeAttached();
    await expect(map.locator(".leaflet-tile")).toHaveCount(0);
    const markers = map.locator("path.loggia-marker");
    await expect(markers).toHaveCount(3);
    await markers.and(page.locator('[data-device="Power meter"]')).click();
    const popup = page.getByTestId("map-popup");
    await expect(popup).toContainText("Power meter");
    await expect(popup).toContainText(/State: (Online|Offline|Stale|Alarm)/);
    await expect(popup).toContainText("Maranello substation");
    await expect(popup).toContainText(/Voltage L1: \d+\.\d V/);
    await expect(popup.getByRole("link", { name: "Open Project State" })).toHaveAttribute("href", "/devices");
  } else {
    const svg = page.getByTestId("svg-map");
    await expect(svg).toBeVisible();
    await expect(svg.locator('path[data-country="Italy"]')).toHaveCount(1);
    const markers = svg.getByTestId("svg-marker");
    await expect(markers).toHaveCount(3);
    await expect(svg.locator('[data-testid="svg-marker"][data-device="Weather station"]')).toHaveAttribute("aria-label", /^Weather station: (Online|Offline|Stale|Alarm)$/);
    // A marker leads to its row in the list.
    await svg.locator('[data-testid="svg-marker"][data-device="Power meter"]').click();
    await expect(page).toHaveURL(/#device-/);
  }

  await list.getByRole("link", { name: "Project State of Power meter" }).click();
  await page.waitForURL((u) => u.pathname === "/devices");
  await expect(page.getByTestId("devices-table")).toBeVisible();
});

test("a device without a location is listed as such; with none located the page says so", async ({ page, javaScriptEnabled }) => {
  const before = await devices();
  try {
    const station = before.find((d) => d.Name === "Weather station")!;
    await setLocation(station, null);
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/cockpit");
    const row = page.getByTestId("map-devices").locator('tr[data-device="Weather station"]');
    await expect(row.getByTestId("map-device-location")).toContainText("No location");
    await expect(row.getByTestId("map-device-location")).not.toContainText("Monte Cimone");
    await expect(row.getByTestId("map-device-values")).toContainText("Air temperature");
    const markers = javaScriptEnabled ? page.locator("path.loggia-marker") : page.getByTestId("svg-marker");
    await expect(markers).toHaveCount(2);

    for (const d of before) await setLocation(d, null);
    await page.goto("/cockpit");
    await expect(page.getByTestId("map-empty")).toContainText("No device has a location yet");
    await expect(page.getByTestId("map-empty").getByRole("link", { name: "Set a device's Latitude and Longitude in Metadata" })).toBeVisible();
    await expect(page.getByTestId("svg-map")).toHaveCount(0);
    // Every device, the three simulated ones and any another test added (the CAN bus).
    await expect(page.getByTestId("map-devices").getByText("No location")).toHaveCount(before.length);
  } finally {
    for (const d of before) await setLocation(d, d.Location);
  }
});

test("the tile server setting is validated and, once set, the map draws its tiles", async ({ page, javaScriptEnabled }) => {
  const { server, template, requests } = await stubTiles();
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/globalSettings");
    const field = page.getByLabel("Map tile server");
    await field.fill("http://tiles.example/{z}/{x}.png");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Enter an http:// or https:// address containing {z}, {x} and {y}.")).toBeVisible();
    await expect(field).toHaveValue("http://tiles.example/{z}/{x}.png");
    await expect(field).toHaveAttribute("aria-invalid", "true");

    await field.fill(template);
    await page.getByLabel("Map tile attribution").fill("© Stub <b>tiles</b>");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Successfully set settings");
    await expect(page.getByLabel("Map tile server")).toHaveValue(template);

    await page.goto("/cockpit");
    if (javaScriptEnabled) {
      const map = page.getByTestId("leaflet-map");
      await expect(map.locator("img.leaflet-tile").first()).toHaveAttribute("src", /^http:\/\/127\.0\.0\.1:\d+\/tiles\/\d+\/\d+\/\d+\.png$/);
      await expect.poll(() => requests.length).toBeGreaterThan(0);
      // The attribution is text: markup in it is shown, not rendered.
      await expect(map.locator(".leaflet-control-attribution")).toContainText("© Stub <b>tiles</b>");
      await expect(map.locator("path.loggia-marker")).toHaveCount(3);
    } else {
      // Without JavaScript the server's offline map is all there is: no tiles are fetched.
      await expect(page.getByTestId("svg-map").getByTestId("svg-marker")).toHaveCount(3);
      expect(requests).toEqual([]);
    }
  } finally {
    await setGlobalSettings({ MapTileUrl: "", MapTileAttribution: "" });
    server.close();
    server.closeAllConnections();
  }
});

test("marker colours follow the devices' state without a reload", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript a reload shows the current state");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/cockpit");
  const bench = page.locator('path.loggia-marker[data-device="Test bench controller"]');
  await expect(bench).toHaveAttribute("data-state", /^(online|alarm)$/);
  try {
    // Stopping the project stops the data: the devices' values go stale.
    await rpc("ProjectAPI.Stop", {});
    await expect(bench).toHaveAttribute("data-state", /^(stale|alarm)$/, { timeout: 15_000 });
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
});

test("a device with an active alarm is shown in the alarm colour", async ({ page, javaScriptEnabled }) => {
  const { Data } = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } }).then(
    (r) => r.json() as Promise<{ Data: { Id: string; Name: string }[] }>,
  );
  const voltage = Data.find((v) => v.Name === "Voltage L1")!.Id;
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: unique("Map voltage "), VariableId: voltage, Type: "high", High: -1000, Severity: "high" } });
  try {
    await expect.poll(async () => (await rpc<{ Alarms: { ID: number; Active: boolean }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ID)?.Active).toBe(true);
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/cockpit");
    await expect(page.getByTestId("map-devices").locator('tr[data-device="Power meter"]').getByTestId("map-device-state")).toHaveText("Alarm");
    const marker = javaScriptEnabled ? page.locator('path.loggia-marker[data-device="Power meter"]') : page.locator('[data-testid="svg-marker"][data-device="Power meter"]');
    await expect(marker).toHaveAttribute("data-state", "alarm");
    if (javaScriptEnabled) await expect(marker).toHaveAttribute("fill", "#dc2626");
    else await expect(marker.locator("circle")).toHaveAttribute("fill", "#dc2626");
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID });
  }
});

test("needs ViewCockpit", async ({ page }) => {
  const role = await createRole(["ViewDevices"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  expect((await page.goto("/cockpit"))?.status()).toBe(403);
  const allowed = await createRole(["ViewCockpit"]);
  const viewer = await createUser(allowed.id);
  await signOut(page);
  await signInDirect(page, viewer.username, viewer.password);
  expect((await page.goto("/cockpit"))?.status()).toBe(200);
  await expect(page.getByTestId("map-devices").locator("tbody tr")).toHaveCount((await devices()).length);
});
