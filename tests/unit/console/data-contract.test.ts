import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_CONTENT } from "~/schemas/dashboards";
import type { ExportChoices } from "~/schemas/export";
import { loadDashboardData } from "~/services/dashboards.server";
import { exportBody } from "~/services/export.server";
import { listMeasurements, loadSeries } from "~/services/history.server";
import { LoggerClient, type TokenStore } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { timeSeriesAnswer } from "~/services/logger/schemas";
import { onlineVariables } from "~/services/variables.server";
import { ADMIN_PASSWORD, CLIENT, rpc, sleep, start, type TestLogger } from "../logger/helpers";

// The console against a logger of the family that has none of Loggia's extras: a filter in
// front of the real embedded logger drops every field and path the data contract does not list
// (LOGGER-API.md, "Data"). The console must read variables' sources, series, measurements and
// exports from the contract alone.

const ONLINE_EXTRAS = ["SourceId", "DeviceId", "ModuleId", "SampleRateHz"];

function strip(path: string, body: { Data?: unknown }): unknown {
  const data = body.Data;
  if (path === "/online/structure/variables" && Array.isArray(data)) for (const v of data) for (const k of ONLINE_EXTRAS) delete v[k];
  if (/^\/history\/structure\/sources$/.test(path) && Array.isArray(data)) for (const s of data) delete s.Variables;
  if (/\/measurements$/.test(path) && Array.isArray(data)) for (const m of data) (delete m.End, delete m.MatchedOn);
  if (/\/data$/.test(path) && Array.isArray(data)) for (const d of data) (delete d.TimeSeries.Min, delete d.TimeSeries.Max);
  return body;
}

/** A reverse proxy that passes the contract through and nothing of Loggia's own (no /revision, no extras). */
function contractOnly(target: string): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/revision" || path === "/online/stream") return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => ["authorization", "content-type"].includes(k)) as [string, string][]),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const type = upstream.headers.get("content-type") ?? "";
    if (!type.includes("json")) {
      res.writeHead(upstream.status, { "Content-Type": type });
      return void res.end(Buffer.from(await upstream.arrayBuffer()));
    }
    res.writeHead(upstream.status, { "Content-Type": type });
    res.end(JSON.stringify(strip(path, await upstream.json())));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen })));
}

let logger: TestLogger;
let proxy: Awaited<ReturnType<typeof contractOnly>>;
let client: LoggerClient;
let admin = "";

beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 4, tickMs: 50 } });
  proxy = await contractOnly(logger.url);
  const pair: { accessToken?: string; refreshToken?: string } = {};
  const store: TokenStore = { get: () => pair, set: (p) => ((pair.accessToken = p?.access_token), (pair.refreshToken = p?.refresh_token)) };
  client = new LoggerClient({ baseUrl: proxy.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 5000 }, store, { cache: true });
  store.set(await client.passwordGrant("admin", ADMIN_PASSWORD));
  admin = (await client.passwordGrant("admin", ADMIN_PASSWORD)).access_token;
  await sleep(1500);
});
afterAll(async () => {
  proxy.server.close();
  await logger.stop();
});

describe("the console on the data contract alone", () => {
  it("finds each variable's source through the per-source listings", async () => {
    const vars = await onlineVariables(client);
    const oil = vars.find((v) => v.Name === "Oil temperature")!;
    const volts = vars.find((v) => v.Name === "Voltage L1")!;
    expect(oil.SourceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(volts.SourceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(oil.SourceId).not.toBe(volts.SourceId);
    expect(proxy.seen).toContain(`GET /history/structure/sources/${oil.SourceId}/variables`);
  });

  it("draws series from AbsoluteStart and Delta, without bands when Min/Max are missing", async () => {
    const oil = (await onlineVariables(client)).find((v) => v.Name === "Oil temperature")!;
    const now = Date.now();
    const { series, error } = await loadSeries(client, [oil], { from: now - 1000, to: now }, 50);
    expect(error).toBeNull();
    expect(series!.min).toBeUndefined();
    // The first bucket lies on the logger's grid, within one bucket of the asked start.
    expect(Math.abs(series!.start - (now - 1000))).toBeLessThanOrEqual(series!.delta);
    expect(series!.delta).toBeGreaterThanOrEqual(20);
    expect(series!.values[0]!.filter((v) => v !== null).length).toBeGreaterThan(20);
    const page = await loadDashboardData(client, { ...EMPTY_CONTENT, Widgets: [{ ID: "w", Type: "chart", Title: "", X: 0, Y: 0, W: 6, H: 3, Variables: [oil.Id], Options: {} }] }, { from: now - 2000, to: now });
    expect(page.widgets.w).toMatchObject({ state: "ok", series: { min: undefined } });
  });

  it("lists measurements per source, ending at LastTimeStamp when the logger says no End", async () => {
    const started = (await rpc(logger.url, "MeasurementAPI.Start", { Name: "Contract run", MetaData: [{ Key: "Operator", Value: "Ada" }] }, admin)).body.Measurement;
    expect(started.Name).toBe("Contract run");
    await sleep(300);
    const stopped = (await rpc(logger.url, "MeasurementAPI.Stop", {}, admin)).body.Measurement;
    const list = await listMeasurements(client, { meta: { key: "operator", value: "ad" } });
    expect(list.map((m) => m.Name)).toEqual(["Contract run"]);
    expect(list[0]).toMatchObject({ ID: started.ID, start: started.Start, SourceId: started.SourceId, MetaData: [{ Key: "Operator", Value: "Ada" }] });
    // Without Loggia's End: the contract's LastTimeStamp, its last sample before the stop (the
    // store may be one acquisition tick behind).
    expect(stopped.End - list[0]!.end!).toBeGreaterThan(0);
    expect(stopped.End - list[0]!.end!).toBeLessThan(200);
    expect(list[0]!.Variables).toEqual(started.Variables);
  });

  it("exports with the contract's CSVSettings: separators, header text, translated time header, strftime times", async () => {
    const vars = (await onlineVariables(client)).filter((v) => v.Name === "Oil temperature");
    const now = Date.now() - 500;
    const choices: ExportChoices = { v: [vars[0]!.Id], mode: "raw", interval: 1, aggregate: "mean", time: "iso", sep: "locale", format: "csv" };
    const body = exportBody(choices, vars, { from: now - 200, to: now }, "Europe/Rome", "it", ["Measurement: Run 1", "two\nlines"], "tempo");
    const res = await client.stream("/history/data", "POST", body);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines.slice(0, 3)).toEqual(["# Measurement: Run 1", "# two lines", "tempo;Oil temperature [°C]"]);
    expect(lines).toHaveLength(3 + 20);
    expect(lines[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00;-?\d+(,\d+)?$/);
    const epoch = await client.stream("/history/data", "POST", exportBody({ ...choices, time: "epoch", sep: "comma" }, vars, { from: now - 200, to: now }, "UTC", "en", [], "time"));
    const rows = (await epoch.text()).trimEnd().split("\r\n");
    expect(rows[0]).toBe("time,Oil temperature [°C]");
    expect(Number(rows[1]!.split(",")[0])).toBe(Math.ceil((now - 200) / 10) * 10);
  });

  it("reports an unknown measurement selector as the logger's 404", async () => {
    const oil = (await onlineVariables(client)).find((v) => v.Name === "Oil temperature")!;
    const error = await client.rest("POST", "/history/data", { Start: 0, End: 0, Variables: [{ SID: oil.SourceId, VID: oil.Id, Selector: "mid:nope" }] }, timeSeriesAnswer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoggerError);
    expect((error as LoggerError).status).toBe(404);
  });
});
