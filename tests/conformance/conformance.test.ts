// Conformance of a logger's data API with shared/design/LOGGER-API.md ("Conventions", "Auth",
// "Data"), seen the way the logger family's own data clients see it. Written from the contract
// alone: nothing here imports from logger/ or app/. Runs against the embedded logger (started
// here as a child process) or against CONFORMANCE_URL; see README.md beside this file.
//
// Every failure names the call and the field, e.g.
//   GET /history/structure/sources → Data[0].Index: expected int, got undefined
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clip, LoggerClient, MsgType, show, WorkerType, type Answer, type Frame, type FrameHeader, type GiSocket } from "./client.ts";
import {
  assertConform,
  ContractError,
  dataItems,
  DataAnswer,
  ImportSessionAnswer,
  LoginAnswer,
  LoginRequiredAnswer,
  MeasurementsAnswer,
  OnlineReadAnswer,
  OnlineVariablesAnswer,
  Problems,
  problemsOf,
  PublishPayload,
  ReturnState,
  SourcesAnswer,
  SourceVariablesAnswer,
} from "./contract.ts";
import { formatDateTime, numberCell, parseDateTime, parseNumberCell, splitCsv, type CsvExportSettings } from "./csv.ts";
import { startEmbeddedWith, startTarget, type Target } from "./target.ts";
import { nsSince2000, readUdbf, TYPE_SIZES, writeUdbf, type UdbfVar } from "./udbf.ts";

// ---------------------------------------------------------------- the logger under test

let target: Target | undefined;
let client: LoggerClient | undefined;
let loginRequiredAnswer: Answer | undefined;
let loginAnswer: Answer | undefined;
let startError: Error | undefined;

beforeAll(async () => {
  try {
    target = await startTarget();
    ({ client, loginRequiredAnswer, loginAnswer } = await LoggerClient.connect({
      url: target.url,
      user: target.user,
      password: target.password,
      clientId: target.clientId,
    }));
  } catch (err) {
    startError = err as Error;
  }
}, 60_000);

afterAll(async () => {
  await target?.stop();
}, 20_000);

/** The signed-in client; every check fails with the start-up error when there is none. */
function api(): LoggerClient {
  if (!client) throw new Error(`no logger to check: ${startError?.message ?? "not started"}${target?.log() ? `\n--- logger output ---\n${target.log()}` : ""}`);
  return client;
}

/** A value an earlier step should have found; says which step when it is missing. */
function need<T>(value: T | undefined | null, what: string): T {
  api(); // without a logger, say that first
  if (value === undefined || value === null) throw new Error(`cannot check this: ${what}`);
  return value;
}

/** For a server fault (5xx) of the embedded logger: its last output lines, where the cause is. */
function faultLog(answer: Answer): string {
  return answer.status >= 500 && target?.embedded ? `\n--- embedded logger output (last lines) ---\n${target.log()}` : "";
}

function expectStatus(answer: Answer, status: number) {
  if (answer.status !== status) {
    throw new Error(`${answer.label} → HTTP ${answer.status}, expected ${status}: ${clip(answer.text)}${faultLog(answer)}`);
  }
}

const sameId = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NUMERIC = new Set(["FLOAT", "DOUBLE", "SINT8", "USINT8", "SINT16", "USINT16", "SINT32", "USINT32", "SINT64", "USINT64"]);

// ---------------------------------------------------------------- what earlier steps found

interface SourceInfo {
  Id: string | number;
  Name: string;
  Index: number;
  SampleRateHz: number;
  AbsoluteStart: number;
  LastTimeStamp: number;
  AvailableTimeSec: number;
}
interface VariableInfo {
  Id: string | number;
  Name: string;
  Index: number;
  Unit: string;
  DataFormat: string;
}
interface OnlineInfo extends VariableInfo {
  Direction: "I" | "O" | "IO";
  IndexIn: number;
  IndexOut: number;
  RangeMin?: number | null;
  RangeMax?: number | null;
}
interface MeasurementInfo {
  Id: string | number;
  Name?: string | null;
  AbsoluteStart: number;
  LastTimeStamp: number;
  SampleRateHz: number;
  SourceId: string | number;
}

const found: {
  historySources?: SourceInfo[];
  bufferSources?: SourceInfo[];
  source?: SourceInfo;
  historyVariables?: VariableInfo[];
  bufferVariables?: VariableInfo[];
  online?: OnlineInfo[];
  measurements?: MeasurementInfo[];
  /** The longest measurement of the source: fixed windows in the past are read from it. */
  measurement?: MeasurementInfo;
  /**
   * What the measurement reads (Selector "mid:<id>") use: the source's longest measurement, or
   * when the source lists none, the measurement the CSV import made.
   */
  midTarget?: { source: SourceInfo | { Id: string }; variables: VariableInfo[]; measurement: MeasurementInfo; origin: string };
} = {};

const raw = (json: any) => (Array.isArray(json?.Data) ? (json.Data as any[]) : []);

async function listSources(kind: "history" | "buffer"): Promise<{ answer: Answer; sources: SourceInfo[] }> {
  const answer = await api().get(`/${kind}/structure/sources`);
  return { answer, sources: raw(answer.json) };
}

/** The source to read: the one with data whose last sample is the newest. */
function pickSource(sources: SourceInfo[]): SourceInfo | undefined {
  const withData = sources.filter((s) => typeof s.LastTimeStamp === "number" && s.LastTimeStamp > s.AbsoluteStart);
  return [...withData].sort((a, b) => b.LastTimeStamp - a.LastTimeStamp || b.SampleRateHz - a.SampleRateHz)[0];
}

/** Up to `n` variables, numeric ones first (they carry values a CSV and a chart show). */
function pickVariables<T extends VariableInfo>(vars: T[], n: number): T[] {
  const numeric = vars.filter((v) => NUMERIC.has(v.DataFormat));
  return (numeric.length ? numeric : vars).slice(0, n);
}

function dataRequest(vars: VariableInfo[], sid: string | number, selector: string, extra: Record<string, unknown>) {
  return {
    Start: 0,
    End: 0,
    Variables: vars.map((v) => ({ SID: sid, VID: v.Id, Selector: selector })),
    Points: 100,
    Type: "equidistant",
    Format: "json",
    Precision: -1,
    TimeZone: "UTC",
    TimeOffset: 0,
    ...extra,
  };
}

/** Checks a JSON data answer and returns its first TimeSeries (the one clients read). */
function firstTimeSeries(answer: Answer, nVars: number, points: number | null): any {
  expectStatus(answer, 200);
  assertConform(answer.label, DataAnswer, answer.json);
  const items = dataItems(answer.json);
  const p = new Problems();
  p.expect(items.length >= 1, `${answer.label} → Data: expected at least one {TimeSeries}, got none`);
  const ts = items[0]?.TimeSeries;
  if (ts) {
    p.expect(ts.Values.length === nVars, `${answer.label} → Data[0].TimeSeries.Values: expected one array per variable (${nVars}), got ${ts.Values.length}`);
    ts.Values.forEach((vals: unknown[], i: number) =>
      p.expect(vals.length === ts.Size, `${answer.label} → Data[0].TimeSeries.Values[${i}]: expected Size (${ts.Size}) values, got ${vals.length}`),
    );
    if (points !== null) p.expect(ts.Size <= points, `${answer.label} → Data[0].TimeSeries.Size: expected at most Points (${points}), got ${ts.Size}`);
    p.expect(ts.Size === 0 || ts.Delta > 0, `${answer.label} → Data[0].TimeSeries.Delta: expected > 0 (ms between rows), got ${ts.Delta}`);
  }
  p.throwIfAny();
  return ts;
}

/** Rows as clients build them: time = AbsoluteStart + k·Delta, one value per variable. */
function rowsOf(ts: any): { time: number; values: (number | null)[] }[] {
  const rows = [];
  for (let k = 0; k < ts.Size; k++) rows.push({ time: ts.AbsoluteStart + k * ts.Delta, values: ts.Values.map((v: (number | null)[]) => v[k] ?? null) });
  return rows;
}

/** IndexIn/IndexOut must agree with Direction: -1 when not that direction. */
function directionProblems(label: string, path: string, vars: any[], p: Problems) {
  vars.forEach((v, i) => {
    const at = `${label} → ${path}[${i}]`;
    const isIn = v.Direction === "I" || v.Direction === "IO";
    const isOut = v.Direction === "O" || v.Direction === "IO";
    if (isIn) p.expect(Number.isInteger(v.IndexIn) && v.IndexIn >= 0, `${at}.IndexIn: expected ≥ 0 for Direction ${v.Direction}, got ${show(v.IndexIn)}`);
    else p.expect(v.IndexIn === -1, `${at}.IndexIn: expected -1 for Direction ${show(v.Direction)}, got ${show(v.IndexIn)}`);
    if (isOut) p.expect(Number.isInteger(v.IndexOut) && v.IndexOut >= 0, `${at}.IndexOut: expected ≥ 0 for Direction ${v.Direction}, got ${show(v.IndexOut)}`);
    else p.expect(v.IndexOut === -1, `${at}.IndexOut: expected -1 for Direction ${show(v.Direction)}, got ${show(v.IndexOut)}`);
  });
}

// ================================================================= Auth

describe("Auth", () => {
  it("POST /rpc/AdminAPI.LoginRequired → {LoginRequired: boolean, ReturnState}", () => {
    api();
    assertConform(loginRequiredAnswer!.label, LoginRequiredAnswer, loginRequiredAnswer!.json);
  });

  it("POST /rpc/AdminAPI.Login {ClientID, Username, Password} → {AccessToken, RefreshToken, ExpiresIn}", (ctx) => {
    const c = api();
    if (!c.loginRequired) ctx.skip("login is not required: every call goes with `Bearer None`");
    const answer = need(loginAnswer, "no AdminAPI.Login answer");
    expectStatus(answer, 200);
    const body = assertConform(answer.label, LoginAnswer, answer.json);
    expect(body.ReturnState.Value, `${answer.label} → ReturnState.Value`).toBe(0);
    expect(body.ExpiresIn, `${answer.label} → ExpiresIn (seconds)`).toBeGreaterThan(0);
    expect(body.AccessToken, `${answer.label} → AccessToken`).not.toBe(body.RefreshToken);
  });

  it("data calls need the token (401 without or with a wrong one); without login, `Bearer None` works", async () => {
    const c = api();
    if (c.loginRequired) {
      const none = await c.get("/history/structure/sources", { authorization: null });
      expect(none.status, `${none.label} without Authorization → HTTP status`).toBe(401);
      const wrong = await c.get("/history/structure/sources", { authorization: "Bearer not-a-token" });
      expect(wrong.status, `${wrong.label} with "Bearer not-a-token" → HTTP status`).toBe(401);
      const bogus = await c.post("/online/data", { Variables: [], Function: "read" }, { authorization: "Bearer None" });
      expect(bogus.status, `${bogus.label} with "Bearer None" while login is required → HTTP status`).toBe(401);
    } else {
      const answer = await c.get("/history/structure/sources", { authorization: "Bearer None" });
      expect(answer.status, `${answer.label} with "Bearer None" (login not required) → HTTP status`).toBe(200);
    }
  });

  it("POST /rpc/AdminAPI.RefreshToken {ClientID, RefreshToken} → new tokens that work; the used refresh token is refused", async (ctx) => {
    const c = api();
    if (!c.loginRequired) ctx.skip("login is not required");
    // A session of its own, so the suite's tokens stay as they are.
    const own = new LoggerClient(c.base, c.clientId);
    const login = await own.login(target!.user, target!.password);
    expectStatus(login, 200);
    const used = need(own.refreshToken, `${login.label} → RefreshToken missing`);
    const refreshed = await own.refresh(used);
    expectStatus(refreshed, 200);
    const body = assertConform(refreshed.label, LoginAnswer, refreshed.json);
    expect(body.AccessToken, `${refreshed.label} → AccessToken: expected a new token`).not.toBe(login.json.AccessToken);
    const works = await own.get("/history/structure/sources");
    expect(works.status, `${works.label} with the refreshed AccessToken → HTTP status`).toBe(200);
    const again = await new LoggerClient(c.base, c.clientId).refresh(used);
    const refused = again.status !== 200 || typeof again.json?.AccessToken !== "string" || (again.json?.ReturnState?.Value ?? 0) < 0;
    expect(refused, `${again.label} with an already used RefreshToken → expected a refusal, got HTTP ${again.status} ${clip(again.text, 120)}`).toBe(true);
  });
});

// ================================================================= Data: structure

describe("Data: structure", () => {
  for (const kind of ["history", "buffer"] as const) {
    it(`GET /${kind}/structure/sources → {Success, Data: [{Id, Name, Index, SampleRateHz, AbsoluteStart, LastTimeStamp, AvailableTimeSec}]}`, async () => {
      const { answer, sources } = await listSources(kind);
      expectStatus(answer, 200);
      const p = new Problems();
      p.check(answer.label, SourcesAnswer, answer.json);
      p.expect(answer.json?.Success === true, `${answer.label} → Success: expected true, got ${show(answer.json?.Success)}`);
      p.expect(sources.length > 0, `${answer.label} → Data: expected at least one source, got none`);
      sources.forEach((s, i) => {
        if (typeof s.AbsoluteStart === "number" && typeof s.LastTimeStamp === "number") {
          p.expect(s.LastTimeStamp >= s.AbsoluteStart, `${answer.label} → Data[${i}].LastTimeStamp: expected ≥ AbsoluteStart (${s.AbsoluteStart}), got ${s.LastTimeStamp}`);
        }
      });
      const indexes = sources.map((s) => s.Index);
      p.expect(new Set(indexes).size === indexes.length, `${answer.label} → Data[*].Index: expected distinct, got ${JSON.stringify(indexes)}`);
      if (kind === "history") found.historySources = sources;
      else found.bufferSources = sources;
      found.source ??= pickSource(sources);
      p.throwIfAny();
    });
  }

  for (const kind of ["history", "buffer"] as const) {
    it(`GET /${kind}/structure/sources/{sid}/variables → {Success, Data: [{Id, Name, Index, Unit, DataFormat, GQLId?}]}`, async () => {
      const source = need(found.source, "no source with data in the sources listing");
      const answer = await api().get(`/${kind}/structure/sources/${encodeURIComponent(String(source.Id))}/variables`);
      expectStatus(answer, 200);
      const p = new Problems();
      p.check(answer.label, SourceVariablesAnswer, answer.json);
      const vars: VariableInfo[] = raw(answer.json);
      p.expect(vars.length > 0, `${answer.label} → Data: expected the source's variables, got none`);
      const indexes = vars.map((v) => v.Index);
      p.expect(new Set(indexes).size === indexes.length, `${answer.label} → Data[*].Index: expected distinct, got ${JSON.stringify(indexes)}`);
      if (kind === "history") found.historyVariables = vars;
      else found.bufferVariables = vars;
      p.throwIfAny();
    });
  }

  it("GET /online/structure/variables → {Success, Data: [{Id, Name, Unit, DataFormat, Direction, Index, IndexIn, IndexOut, Precision, RangeMin?, RangeMax?}]}", async () => {
    const answer = await api().get("/online/structure/variables");
    expectStatus(answer, 200);
    const p = new Problems();
    p.check(answer.label, OnlineVariablesAnswer, answer.json);
    const vars: OnlineInfo[] = raw(answer.json);
    p.expect(vars.length > 0, `${answer.label} → Data: expected variables, got none`);
    found.online = vars;
    directionProblems(answer.label, "Data", vars, p);
    // IndexIn / IndexOut: the position among inputs / outputs, in the order of Index.
    const byIndex = vars.map((v, i) => ({ v, i })).sort((a, b) => a.v.Index - b.v.Index);
    for (const [dir, field] of [
      ["I", "IndexIn"],
      ["O", "IndexOut"],
    ] as const) {
      const members = byIndex.filter(({ v }) => v.Direction === dir || v.Direction === "IO");
      members.forEach(({ v, i }, position) => {
        p.expect((v as any)[field] === position, `${answer.label} → Data[${i}].${field}: expected ${position} (position among ${dir === "I" ? "inputs" : "outputs"} by Index), got ${show((v as any)[field])}`);
      });
    }
    p.throwIfAny();
  });

  it("POST /online/data {Variables, Function: \"read\"} → {Success, Data: {Values: [one per variable]}}", async () => {
    const inputs = need(found.online, "no online variables").filter((v) => v.Direction !== "O");
    const vars = pickVariables(inputs, 3);
    need(vars[0], "no input variable");
    const answer = await api().post("/online/data", { Variables: vars.map((v) => v.Id), Function: "read" });
    expectStatus(answer, 200);
    const body = assertConform(answer.label, OnlineReadAnswer, answer.json);
    expect(body.Data.Values.length, `${answer.label} → Data.Values: expected one value per variable`).toBe(vars.length);
  });

  for (const [kind, order] of [
    ["history", "asc"],
    ["history", "DESC"],
    ["buffer", "DESC"],
  ] as const) {
    it(`POST /${kind}/structure/sources/{sid}/measurements {Order: "${order}", AddVarMapping, AddMeasMetaData, Limit} → every field, Variables as objects`, async () => {
      const source = need(found.source, "no source with data in the sources listing");
      const path = `/${kind}/structure/sources/${encodeURIComponent(String(source.Id))}/measurements`;
      const answer = await api().post(path, { Order: order, AddVarMapping: true, AddMeasMetaData: true, Limit: 50 });
      expectStatus(answer, 200);
      const p = new Problems();
      p.check(answer.label, MeasurementsAnswer, answer.json);
      const list: any[] = raw(answer.json);
      // History is read by measurement (Selector "mid:<id>"): a source with history data that
      // lists no measurement leaves clients nothing to read.
      if (kind === "history") p.expect(list.length > 0, `${answer.label} → Data: expected at least one measurement (the source has history data ${source.AbsoluteStart}…${source.LastTimeStamp}; clients read history by Selector "mid:<id>"), got none`);
      p.expect(list.length <= 50, `${answer.label} → Data: expected at most Limit (50) measurements, got ${list.length}`);
      list.forEach((m, i) => {
        p.expect(sameId(m.SourceId, source.Id), `${answer.label} → Data[${i}].SourceId: expected ${show(source.Id)}, got ${show(m.SourceId)}`);
        p.expect(typeof m.LastTimeStamp !== "number" || m.LastTimeStamp >= m.AbsoluteStart, `${answer.label} → Data[${i}].LastTimeStamp: expected ≥ AbsoluteStart (${m.AbsoluteStart}), got ${m.LastTimeStamp}`);
        p.expect(Array.isArray(m.Variables) && m.Variables.length > 0, `${answer.label} → Data[${i}].Variables: expected the measurement's variables, got ${show(m.Variables)}`);
        if (Array.isArray(m.Variables)) directionProblems(answer.label, `Data[${i}].Variables`, m.Variables, p);
      });
      const starts = list.map((m) => m.AbsoluteStart);
      const sorted = [...starts].sort((a, b) => (order.toLowerCase() === "asc" ? a - b : b - a));
      p.expect(JSON.stringify(starts) === JSON.stringify(sorted), `${answer.label} → Data[*].AbsoluteStart: expected ${order.toLowerCase() === "asc" ? "ascending" : "descending"} (Order "${order}"), got ${JSON.stringify(starts)}`);
      if (kind === "history" && order === "asc") {
        found.measurements = list;
        found.measurement = [...list].sort((a, b) => b.LastTimeStamp - b.AbsoluteStart - (a.LastTimeStamp - a.AbsoluteStart))[0];
        if (found.measurement && found.historyVariables) {
          found.midTarget = { source, variables: found.historyVariables, measurement: found.measurement, origin: `the longest measurement of ${source.Name}` };
        }
      }
      if (kind === "history" && order === "DESC" && found.measurements) {
        const ascIds = found.measurements.map((m) => String(m.Id));
        const descIds = list.map((m) => String(m.Id));
        // The newest may have been cut in two between the calls; compare what both hold.
        const common = descIds.filter((x) => ascIds.includes(x));
        p.expect(JSON.stringify(common) === JSON.stringify(ascIds.filter((x) => common.includes(x)).reverse()), `${answer.label} → Data[*].Id: expected the "asc" listing reversed, got ${JSON.stringify(descIds)} vs asc ${JSON.stringify(ascIds)}`);
        if (descIds.length > 1) {
          const one = await api().post(path, { Order: "desc", AddVarMapping: true, AddMeasMetaData: true, Limit: 1 });
          const oneList = raw(one.json);
          p.expect(one.status === 200 && oneList.length === 1, `${one.label} {Limit: 1} → Data: expected exactly 1 measurement, got HTTP ${one.status} with ${oneList.length}`);
          if (oneList.length === 1) p.expect(String(oneList[0].Id) === descIds[0], `${one.label} {Order: "desc", Limit: 1} → Data[0].Id: expected the newest (${descIds[0]}), got ${show(oneList[0].Id)}`);
        }
      }
      p.throwIfAny();
    });
  }
});

// ================================================================= CSV import

describe("CSV import (POST /history/data/import, …/{session}, DELETE …/{session})", () => {
  it("imports a CSV into a new source; the source, its variables and its measurement are listed and read back exactly", async (ctx) => {
    if (!target?.importEnabled) ctx.skip("CONFORMANCE_IMPORT=off");
    const c = api();
    const sourceId = randomUUID();
    const sourceName = `Conformance import ${new Date().toISOString()}`;
    const measurementName = "Conformance measurement";
    const n = 20;
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const times = Array.from({ length: n }, (_, k) => t0 + k * 1000);
    // Multiples of 0.25: exact in float32 and in decimal text.
    const alpha = times.map((_, k) => k * 0.25 - 1);
    const beta = times.map((_, k) => 100 - k * 0.5);
    const settings = {
      ColumnSeparator: ";",
      DecimalSeparator: ",",
      NameRowIndex: 0,
      UnitRowIndex: 1,
      ValuesStartRowIndex: 2,
      ValuesStartColumnIndex: 1,
      DateTimeFmtColumn1: "%d.%m.%Y %H:%M:%S",
      DateTimeFmtColumn2: "",
      DateTimeFmtColumn3: "",
    };
    const file = [
      "Time;Alpha;Beta",
      ";V;bar",
      ...times.map((t, k) => [formatDateTime(t, settings.DateTimeFmtColumn1), numberCell(alpha[k]!, ","), numberCell(beta[k]!, ",")].join(";")),
      "",
    ].join("\r\n");

    const p = new Problems();
    const open = await c.post("/history/data/import", { Type: "csv", SourceID: sourceId, SourceName: sourceName, MeasurementName: measurementName, CSVSettings: settings });
    expectStatus(open, 200);
    p.check(open.label, ImportSessionAnswer, open.json);
    // The contract names it SessionId; older clients read SessionID. Go on with either.
    const session = need(open.json?.Data?.SessionId ?? open.json?.Data?.SessionID, `${open.label} → Data.SessionId missing: ${clip(open.text, 200)}`);
    const sent = await c.postBytes(`/history/data/import/${encodeURIComponent(String(session))}`, new TextEncoder().encode(file), "text/csv");
    p.expect(sent.status >= 200 && sent.status < 300, `${sent.label} (the file's bytes) → HTTP ${sent.status}: ${clip(sent.text, 200)}${faultLog(sent)}`);
    const closed = await c.del(`/history/data/import/${encodeURIComponent(String(session))}`);
    p.expect(closed.status >= 200 && closed.status < 300, `${closed.label} → HTTP ${closed.status}: ${clip(closed.text, 200)}${faultLog(closed)}`);
    p.throwIfAny();

    // The new source appears (allow the logger a moment to finish the import).
    let listed: SourceInfo | undefined;
    let sources: Answer | undefined;
    for (let i = 0; i < 20 && !listed; i++) {
      if (i) await sleep(250);
      sources = await c.get("/history/structure/sources");
      listed = raw(sources.json).find((s: SourceInfo) => sameId(s.Id, sourceId));
    }
    const src = need(listed, `${sources?.label} → Data: the imported source ${sourceId} is not listed`);
    p.expect(src.Name === sourceName, `${sources!.label} → imported source .Name: expected ${JSON.stringify(sourceName)}, got ${show(src.Name)}`);
    p.expect(src.AbsoluteStart === t0, `${sources!.label} → imported source .AbsoluteStart: expected ${t0} (first CSV row, UTC), got ${show(src.AbsoluteStart)}`);
    p.expect(src.LastTimeStamp === times.at(-1), `${sources!.label} → imported source .LastTimeStamp: expected ${times.at(-1)} (last CSV row), got ${show(src.LastTimeStamp)}`);

    const sid = encodeURIComponent(sourceId);
    const varsAnswer = await c.get(`/history/structure/sources/${sid}/variables`);
    expectStatus(varsAnswer, 200);
    p.check(varsAnswer.label, SourceVariablesAnswer, varsAnswer.json);
    const vars: VariableInfo[] = raw(varsAnswer.json);
    const a = vars.find((v) => v.Name === "Alpha");
    const b = vars.find((v) => v.Name === "Beta");
    p.expect(!!a && !!b, `${varsAnswer.label} → Data[*].Name: expected "Alpha" and "Beta" (the CSV's name row), got ${JSON.stringify(vars.map((v) => v.Name))}`);
    if (a) p.expect(a.Unit === "V", `${varsAnswer.label} → Alpha.Unit: expected "V" (the CSV's unit row), got ${show(a.Unit)}`);
    if (b) p.expect(b.Unit === "bar", `${varsAnswer.label} → Beta.Unit: expected "bar" (the CSV's unit row), got ${show(b.Unit)}`);

    const measAnswer = await c.post(`/history/structure/sources/${sid}/measurements`, { Order: "DESC", AddVarMapping: true, AddMeasMetaData: true, Limit: 10 });
    expectStatus(measAnswer, 200);
    p.check(measAnswer.label, MeasurementsAnswer, measAnswer.json);
    const meas: MeasurementInfo[] = raw(measAnswer.json);
    p.expect(meas.length === 1, `${measAnswer.label} → Data: expected the 1 imported measurement, got ${meas.length}`);
    const m = meas[0];
    if (m) {
      p.expect(m.AbsoluteStart === t0, `${measAnswer.label} → Data[0].AbsoluteStart: expected ${t0}, got ${show(m.AbsoluteStart)}`);
      p.expect(m.LastTimeStamp === times.at(-1), `${measAnswer.label} → Data[0].LastTimeStamp: expected ${times.at(-1)}, got ${show(m.LastTimeStamp)}`);
      p.expect(m.Name == null || m.Name === measurementName, `${measAnswer.label} → Data[0].Name: expected ${JSON.stringify(measurementName)} (MeasurementName), got ${show(m.Name)}`);
      p.expect(Math.abs(m.SampleRateHz - 1) < 1e-9, `${measAnswer.label} → Data[0].SampleRateHz: expected 1 (rows 1 s apart), got ${show(m.SampleRateHz)}`);
    }
    if (!a || !b || !m) p.throwIfAny();

    found.midTarget ??= { source: { Id: sourceId }, variables: [a!, b!], measurement: m!, origin: "the imported measurement" };
    const read = await c.post("/history/data", dataRequest([a!, b!], sourceId, `mid:${m!.Id}`, { Start: 0, End: 0, Points: 1000 }));
    let ts: any;
    try {
      ts = firstTimeSeries(read, 2, 1000);
    } catch (err) {
      p.lines.push(...((err as ContractError).problems ?? [(err as Error).message]));
      p.throwIfAny();
    }
    const at = `${read.label} (the imported measurement) → Data[0].TimeSeries`;
    p.expect(ts.Size === n, `${at}.Size: expected ${n} (the CSV's rows), got ${ts.Size}`);
    p.expect(ts.AbsoluteStart === t0, `${at}.AbsoluteStart: expected ${t0}, got ${ts.AbsoluteStart}`);
    p.expect(ts.Delta === 1000, `${at}.Delta: expected 1000 ms, got ${ts.Delta}`);
    p.expect(JSON.stringify(ts.Values[0]) === JSON.stringify(alpha), `${at}.Values[0] (Alpha): expected ${JSON.stringify(alpha)}, got ${JSON.stringify(ts.Values[0])}`);
    p.expect(JSON.stringify(ts.Values[1]) === JSON.stringify(beta), `${at}.Values[1] (Beta): expected ${JSON.stringify(beta)}, got ${JSON.stringify(ts.Values[1])}`);
    p.throwIfAny();
  });
});

// ================================================================= Data: reads

describe("Data: reads", () => {
  it("POST /buffer/data {Selector: \"latest\", Start: -10000, End: 0, Points: 100} → one TimeSeries, rows of the last 10 s", async () => {
    const source = need(found.source, "no source with data");
    const vars = pickVariables(need(found.bufferVariables ?? found.historyVariables, "no variables of the source"), 3);
    const before = Date.now();
    const answer = await api().post("/buffer/data", dataRequest(vars, source.Id, "latest", { Start: -10_000, End: 0, Points: 100 }));
    const after = Date.now();
    const ts = firstTimeSeries(answer, vars.length, 100);
    const rows = rowsOf(ts);
    const at = `${answer.label} → Data[0].TimeSeries`;
    expect(ts.Size, `${at}.Size: expected rows from a source with data`).toBeGreaterThan(0);
    const slack = ts.Delta + 1500;
    expect(rows[0]!.time, `${at}: first row time (AbsoluteStart) must lie in the last 10 s`).toBeGreaterThanOrEqual(before - 10_000 - slack);
    expect(rows.at(-1)!.time, `${at}: last row time (AbsoluteStart + (Size-1)·Delta) must not be in the future`).toBeLessThanOrEqual(after + slack);
    const live = after - source.LastTimeStamp < 60_000;
    if (live) {
      expect(rows.at(-1)!.time, `${at}: the last row of a live source must be fresh (≤ 3 s old)`).toBeGreaterThanOrEqual(before - 3000 - ts.Delta);
      const filled = ts.Values.map((v: (number | null)[]) => v.filter((x) => x !== null).length);
      expect(Math.min(...filled), `${at}.Values: a live source has values in the last 10 s (non-null per variable)`).toBeGreaterThan(0);
    }
  });

  it("POST /history/data {Selector: \"mid:<id>\", Start: 0, End: 0} → that measurement's range, MeasurementId = mid", async () => {
    const { source, variables, measurement: m } = need(found.midTarget, "no measurement: the source lists none and the CSV import made none");
    const vars = pickVariables(variables, 3);
    const answer = await api().post("/history/data", dataRequest(vars, source.Id, `mid:${m.Id}`, { Start: 0, End: 0, Points: 200 }));
    const ts = firstTimeSeries(answer, vars.length, 200);
    const at = `${answer.label} (${found.midTarget!.origin}) → Data[0].TimeSeries`;
    const p = new Problems();
    p.expect(sameId(ts.MeasurementId, m.Id), `${at}.MeasurementId: expected ${show(m.Id)}, got ${show(ts.MeasurementId)}`);
    p.expect(ts.Size > 0, `${at}.Size: expected rows of measurement ${m.Id} (${m.AbsoluteStart}…${m.LastTimeStamp}), got ${ts.Size}`);
    if (ts.Size > 0) {
      const first = ts.AbsoluteStart;
      const last = ts.AbsoluteStart + (ts.Size - 1) * ts.Delta;
      p.expect(Math.abs(first - m.AbsoluteStart) <= ts.Delta, `${at}.AbsoluteStart: expected the measurement's start ${m.AbsoluteStart} (± Delta ${ts.Delta}), got ${first}`);
      p.expect(last + ts.Delta >= m.LastTimeStamp - 1, `${at}: rows end at ${last} (+ Delta ${ts.Delta}), expected them to reach the measurement's LastTimeStamp ${m.LastTimeStamp}`);
    }
    p.throwIfAny();
  });

  it("POST /history/data/{sid} answers the same as POST /history/data for the same request", async () => {
    const { source, variables, measurement: m } = need(found.midTarget, "no measurement: the source lists none and the CSV import made none");
    const vars = pickVariables(variables, 3);
    const start = m.AbsoluteStart;
    const end = Math.min(m.AbsoluteStart + 60_000, m.LastTimeStamp);
    const body = dataRequest(vars, source.Id, `mid:${m.Id}`, { Start: start, End: end, Points: 100 });
    const viaBody = await api().post("/history/data", body);
    const viaPath = await api().post(`/history/data/${encodeURIComponent(String(source.Id))}`, body);
    const a = firstTimeSeries(viaBody, vars.length, 100);
    const b = firstTimeSeries(viaPath, vars.length, 100);
    expect(a.Size, `${viaBody.label} → Data[0].TimeSeries.Size: expected rows of ${start}…${end}`).toBeGreaterThan(0);
    const pick = (ts: any) => ({ Size: ts.Size, AbsoluteStart: ts.AbsoluteStart, Delta: ts.Delta, MeasurementId: String(ts.MeasurementId), Values: ts.Values });
    expect(pick(b), `${viaPath.label} → Data[0].TimeSeries: expected what ${viaBody.label} answered`).toEqual(pick(a));
  });

  for (const path of ["/history/data", "/history/data/{sid}"]) {
    it(`POST ${path} with an unknown measurement ("mid:<random>") → HTTP 404, ReturnState.Value -4, no data`, async () => {
      const source = need(found.source, "no source with data");
      const vars = pickVariables(need(found.historyVariables, "no variables of the source"), 1);
      const url = path.replace("{sid}", encodeURIComponent(String(source.Id)));
      const answer = await api().post(url, dataRequest(vars, source.Id, `mid:${randomUUID()}`, { Start: 0, End: 0 }));
      const p = new Problems();
      p.expect(answer.status === 404, `${answer.label} (unknown measurement) → HTTP ${answer.status}, expected 404: ${clip(answer.text, 160)}`);
      p.check(answer.label, ReturnState, answer.json?.ReturnState);
      p.expect(answer.json?.ReturnState?.Value === -4, `${answer.label} (unknown measurement) → ReturnState.Value: expected -4, got ${show(answer.json?.ReturnState?.Value)}`);
      p.expect(!dataItems(answer.json).some((d) => d?.TimeSeries), `${answer.label} (unknown measurement) → Data: expected no TimeSeries, got some`);
      p.throwIfAny();
    });
  }
});

// ================================================================= CSV export

const CSV_VARIANTS: { name: string; settings: CsvExportSettings; precision: number }[] = [
  {
    name: "HeaderText, column header \"Time\", %d.%m.%Y %H:%M:%S.%%0us, \";\" and \",\"",
    settings: {
      HeaderText: "Loggia conformance export",
      AddColumnHeader: true,
      DateTimeHeader: "Time",
      DateTimeFormat: "%d.%m.%Y %H:%M:%S.%%0us",
      ColumnSeparator: ";",
      DecimalSeparator: ",",
    },
    precision: 3,
  },
  {
    name: "no column header, %Y-%m-%d %H:%M:%S.%%0us, \",\" and \".\"",
    settings: {
      AddColumnHeader: false,
      DateTimeHeader: "datetime",
      DateTimeFormat: "%Y-%m-%d %H:%M:%S.%%0us",
      ColumnSeparator: ",",
      DecimalSeparator: ".",
    },
    precision: 2,
  },
];

describe("CSV export (Format \"csv\", CSVSettings honoured exactly)", () => {
  for (const variant of CSV_VARIANTS) {
    it(`POST /history/data (or /buffer/data) {Format: "csv", CSVSettings: ${variant.name}} = the JSON answer: same rows, times and values`, async () => {
      const source = need(found.source, "no source with data");
      // A fixed window in the past, so both answers hold the same data: 5 s of the longest
      // measurement (history), or — when no measurement is listed — 5 s of the buffer.
      const m = found.measurement;
      const vars = pickVariables(need(m ? found.historyVariables : found.bufferVariables, "no variables of the source"), 3);
      const start = m ? m.AbsoluteStart + 1000 : Math.floor(Date.now() / 1000) * 1000 - 8000;
      const end = m ? Math.min(start + 5000, m.LastTimeStamp) : start + 5000;
      const path = m ? "/history/data" : "/buffer/data";
      const base = dataRequest(vars, source.Id, m ? `mid:${m.Id}` : "latest", { Start: start, End: end, Points: 50, Precision: variant.precision });
      const jsonAnswer = await api().post(path, base);
      const ts = firstTimeSeries(jsonAnswer, vars.length, 50);
      expect(ts.Size, `${jsonAnswer.label} (JSON) → Data[0].TimeSeries.Size: expected rows of ${start}…${end}`).toBeGreaterThan(0);
      const csvAnswer = await api().post(path, { ...base, Format: "csv", CSVSettings: variant.settings });
      const label = `${csvAnswer.label} (Format "csv")`;
      expectStatus(csvAnswer, 200);
      expect(csvAnswer.json, `${label}: expected CSV text, got JSON ${clip(csvAnswer.text, 160)}`).toBeUndefined();

      const s = variant.settings;
      const p = new Problems();
      let parsed;
      try {
        parsed = splitCsv(csvAnswer.text, s);
      } catch (err) {
        throw new ContractError([`${label}: ${(err as Error).message}`]);
      }
      if (s.HeaderText) p.expect(parsed.preamble.some((l) => l.includes(s.HeaderText!)), `${label}: HeaderText ${JSON.stringify(s.HeaderText)} expected above the column header, got preamble ${JSON.stringify(parsed.preamble)}`);
      if (s.AddColumnHeader) {
        const header = parsed.header!;
        p.expect(header.length === vars.length + 1, `${label}: column header expected ${vars.length + 1} cells (${JSON.stringify(s.DateTimeHeader)} and one per variable), got ${JSON.stringify(header)}`);
        vars.forEach((v, i) => p.expect((header[i + 1] ?? "").includes(v.Name), `${label}: column header cell ${i + 1} expected to name ${JSON.stringify(v.Name)}, got ${show(header[i + 1])}`));
      } else {
        p.expect(parsed.preamble.length === 0, `${label}: AddColumnHeader false → expected data from the first line, got ${JSON.stringify(parsed.preamble.slice(0, 3))} first`);
      }
      const rows = rowsOf(ts);
      p.expect(parsed.rows.length === rows.length, `${label}: expected ${rows.length} data rows (JSON Size), got ${parsed.rows.length}`);
      const tolerance = 0.5 * 10 ** -variant.precision + 1e-9;
      const cellProblems: string[] = [];
      parsed.rows.slice(0, rows.length).forEach(({ line, cells }, k) => {
        const row = rows[k]!;
        if (cells.length !== vars.length + 1) {
          cellProblems.push(`${label}: line ${line}: expected ${vars.length + 1} cells separated by ${JSON.stringify(s.ColumnSeparator)}, got ${cells.length}: ${JSON.stringify(cells.join(s.ColumnSeparator))}`);
          return;
        }
        try {
          const time = parseDateTime(cells[0]!, s.DateTimeFormat);
          if (Math.abs(time - row.time) > 0.0015) cellProblems.push(`${label}: line ${line}: time ${cells[0]} = ${time} ms, expected ${formatDateTime(row.time, s.DateTimeFormat)} (AbsoluteStart + ${k}·Delta = ${row.time} ms)`);
        } catch (err) {
          cellProblems.push(`${label}: line ${line}: ${(err as Error).message}`);
        }
        vars.forEach((v, i) => {
          const cell = cells[i + 1]!;
          try {
            const value = parseNumberCell(cell, s.DecimalSeparator);
            const frac = cell.split(s.DecimalSeparator)[1] ?? "";
            if (frac.length > variant.precision) cellProblems.push(`${label}: line ${line}, ${v.Name}: ${JSON.stringify(cell)} has more than Precision ${variant.precision} decimals`);
            const want = row.values[i];
            if (want === null || value === null) {
              if (want !== value) cellProblems.push(`${label}: line ${line}, ${v.Name}: expected ${show(want)} (JSON), got ${JSON.stringify(cell)}`);
            } else if (Math.abs(value - want) > tolerance) {
              cellProblems.push(`${label}: line ${line}, ${v.Name}: expected ${want} (JSON) to ${variant.precision} decimals, got ${JSON.stringify(cell)}`);
            }
          } catch (err) {
            cellProblems.push(`${label}: line ${line}, ${v.Name}: ${(err as Error).message}`);
          }
        });
      });
      for (const line of cellProblems.slice(0, 8)) p.add(line);
      if (cellProblems.length > 8) p.add(`${label}: … and ${cellProblems.length - 8} more cell problems`);
      p.throwIfAny();
    });
  }
});

// ================================================================= WebSocket /ws

function publishFrames(socket: GiSocket): Frame[] {
  return socket.frames.filter((f) => f.header[1] === MsgType.Publish && f.header[2] === WorkerType.OnlineData);
}
function errorFrames(socket: GiSocket): Frame[] {
  return socket.frames.filter((f) => f.header[1] === MsgType.Error);
}
function socketState(socket: GiSocket): string {
  const kinds = socket.frames.map((f) => JSON.stringify(f.header)).slice(0, 5);
  return [
    `${socket.frames.length} frames (first headers ${kinds.join(" ") || "none"})`,
    socket.bad.length ? `undecodable: ${socket.bad.slice(0, 3).join("; ")}` : "",
    errorFrames(socket).length ? `error frames: ${errorFrames(socket).slice(0, 2).map((f) => clip(JSON.stringify(f.payload), 200)).join("; ")}` : "",
    socket.closed ? `closed with ${socket.closed.code} ${socket.closed.reason}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

describe("Live values over WebSocket (/ws?apitoken=…)", () => {
  it("Subscribe (msgType 1, worker 2) {IntervalMs, VIDs, ExtendedAnswer, OnValueChanged: false, Precision: -1} → ≥ 10 Publish frames (msgType 2) of [{_id, Id, State, Values}] with fresh values", async () => {
    const inputs = need(found.online, "no online variables").filter((v) => v.Direction !== "O");
    const vars = pickVariables(inputs, 4);
    need(vars[0], "no input variable to subscribe to");
    const vids = vars.map((v) => String(v.Id));
    const socket = await api().openSocket();
    try {
      const header: FrameHeader = ["", MsgType.Subscribe, WorkerType.OnlineData, 1, ""];
      socket.send(header, { IntervalMs: 100, VIDs: vids, ExtendedAnswer: true, OnValueChanged: false, Precision: -1 });
      await socket.until(() => publishFrames(socket).length >= 10 || errorFrames(socket).length > 0, 10_000);
      const frames = publishFrames(socket);
      const label = "WS /ws Subscribe";
      const p = new Problems();
      p.expect(socket.bad.length === 0, `${label}: frames not in the 0x00 + 2-byte LE length + JSON header + JSON payload framing: ${socket.bad.slice(0, 3).join("; ")}`);
      if (frames.length < 10) throw new ContractError([...p.lines, `${label}: expected ≥ 10 Publish frames (header ["", 2, 2, …]) within 10 s, got ${frames.length}; ${socketState(socket)}`]);
      // Per-frame problems are folded: the first frame that shows one, and how many more do.
      const perFrame = new Problems();
      frames.forEach((f, i) => {
        const p = perFrame;
        p.expect(f.header.length === 5 && f.header.every((h, j) => (j === 0 || j === 4 ? typeof h === "string" : typeof h === "number")), `${label} → Publish frame ${i} header: expected ["", msgType, workerType, workerId, ""], got ${JSON.stringify(f.header)}`);
        for (const line of problemsOf(`${label} → Publish frame ${i} payload`, PublishPayload, f.payload).slice(0, 4)) p.add(line);
        if (Array.isArray(f.payload)) {
          const ids = f.payload.map((item: any) => String(item?.Id).toLowerCase());
          for (const vid of vids) p.expect(ids.includes(vid.toLowerCase()), `${label} → Publish frame ${i} payload: expected an item with Id ${vid} (subscribed, OnValueChanged false), got Ids ${JSON.stringify(ids)}`);
          for (const id of ids) p.expect(vids.some((v) => v.toLowerCase() === id), `${label} → Publish frame ${i} payload: Id ${id} was not subscribed`);
        }
      });
      const folded = new Map<string, { line: string; count: number }>();
      for (const line of perFrame.lines) {
        const key = line.replace(/Publish frame \d+/, "Publish frame *");
        const seen = folded.get(key);
        if (seen) seen.count++;
        else folded.set(key, { line, count: 0 });
      }
      for (const { line, count } of folded.values()) p.add(count ? `${line} (also in ${count} more frames)` : line);
      // Fresh: the subscribed (live, analog) inputs do not all stand still across the frames.
      const lastValue = (item: any) => (Array.isArray(item?.Values) ? item.Values.at(-1) : item?.Values);
      const vectors = frames.map((f) => JSON.stringify(Array.isArray(f.payload) ? f.payload.map(lastValue) : null));
      p.expect(new Set(vectors).size > 1, `${label}: values expected to change across ${frames.length} Publish frames (live inputs ${vars.map((v) => v.Name).join(", ")}), got the same ${vectors[0]} each time`);
      p.throwIfAny();
    } finally {
      socket.close();
    }
  });

  it("a Publish frame {Variables, Values, Function: \"write\"} sets an output; POST /online/data {Function: \"read\"} reads it back", async (ctx) => {
    if (!target?.writeEnabled) ctx.skip("CONFORMANCE_WRITE=off");
    const online = need(found.online, "no online variables");
    const outputs = online.filter((v) => v.Direction === "O" || v.Direction === "IO");
    const chosen = target!.writeVariable ? online.find((v) => sameId(v.Id, target!.writeVariable)) : (outputs.find((v) => v.DataFormat === "BOOL") ?? outputs[0]);
    const out = need(chosen, target!.writeVariable ? `CONFORMANCE_WRITE_VARIABLE ${target!.writeVariable} is not an online variable` : "no online variable with Direction O or IO");
    let values: number[];
    if (out.DataFormat === "BOOL") values = [1, 0];
    else {
      const lo = typeof out.RangeMin === "number" ? out.RangeMin : 0;
      const hi = typeof out.RangeMax === "number" ? out.RangeMax : 100;
      const step = out.DataFormat === "FLOAT" || out.DataFormat === "DOUBLE" ? 0.25 : 1;
      const mid = Math.round((lo + (hi - lo) / 2) / step) * step;
      values = [mid, Math.round((lo + (hi - lo) / 4) / step) * step];
    }
    const read = async () => {
      const answer = await api().post("/online/data", { Variables: [out.Id], Function: "read" });
      return { answer, value: answer.json?.Data?.Values?.[0] };
    };
    const original = await read();
    expectStatus(original.answer, 200);
    assertConform(original.answer.label, OnlineReadAnswer, original.answer.json);
    const socket = await api().openSocket();
    const label = `WS /ws Publish {Variables: [${out.Id}], Function: "write"} (${out.Name}, ${out.DataFormat})`;
    try {
      for (const value of values) {
        socket.send(["", MsgType.Publish, WorkerType.OnlineData, 1, ""], { Variables: [out.Id], Values: [value], Function: "write" });
        let last: { answer: Answer; value: unknown } | undefined;
        const deadline = Date.now() + 4000;
        while (Date.now() < deadline) {
          last = await read();
          if (last.value === value || errorFrames(socket).length) break;
          await sleep(100);
        }
        if (last?.value !== value) {
          throw new ContractError([`${label} → then ${last?.answer.label} {Function: "read"} → Data.Values[0]: expected ${value}, got ${show(last?.value)} after 4 s; socket: ${socketState(socket)}`]);
        }
      }
      expect(errorFrames(socket), `${label}: the logger answered error frames`).toEqual([]);
    } finally {
      // Put the output back as it was.
      if (typeof original.value === "number" && original.value !== values.at(-1)) {
        socket.send(["", MsgType.Publish, WorkerType.OnlineData, 1, ""], { Variables: [out.Id], Values: [original.value], Function: "write" });
        await sleep(200);
      }
      socket.close();
    }
  });
});

// ================================================================= Conventions (over every answer above)

describe("Conventions", () => {
  it("an unknown RPC method → HTTP 404 with a negative ReturnState.Value", async () => {
    const answer = await api().rpc("NoSuchAPI.NoSuchMethod", {});
    expect(answer.status, `${answer.label} → HTTP status`).toBe(404);
    expect(answer.json?.ReturnState?.Value, `${answer.label} → ReturnState.Value`).toBeLessThan(0);
  });

  it("every JSON answer carries ReturnState {Value: int, Description: str}; an HTTP error has a negative Value", () => {
    const c = api();
    const p = new Problems();
    const seen = new Set<string>();
    for (const r of c.recorded) {
      const key = `${r.label} ${r.status}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!p.check(`${r.label} (HTTP ${r.status})`, ReturnState, r.json?.ReturnState)) continue;
      if (r.status >= 400) p.expect(r.json.ReturnState.Value < 0, `${r.label} (HTTP ${r.status}) → ReturnState.Value: expected negative for an error, got ${r.json.ReturnState.Value}`);
    }
    expect(seen.size, "answers recorded by the suite").toBeGreaterThan(5);
    p.throwIfAny();
  });
});

// ================================================================= UDBF and the data client's rules

/** CSV row times of a data request (the contract's CSVSettings, UTC, µs), to check the JSON's Start + k × Delta against. */
async function csvTimes(path: string, body: Record<string, unknown>): Promise<number[]> {
  const answer = await api().post(path, { ...body, Format: "csv", CSVSettings: { AddColumnHeader: false, DateTimeFormat: "%Y-%m-%d %H:%M:%S.%%0us", ColumnSeparator: ";", DecimalSeparator: "." } });
  expectStatus(answer, 200);
  return answer.text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => parseDateTime(l.split(";")[0]!, "%Y-%m-%d %H:%M:%S.%%0us"));
}

describe("The data client's DataFrame rule: value k of a TimeSeries is at Start + k × Delta", () => {
  for (const kind of ["buffer", "history"] as const) {
    it(`POST /${kind}/data with Points and with raw samples: Start + k × Delta is each row's time (the CSV rows of the same request)`, async () => {
      const source = need(found.source, "no source with data");
      const m = found.measurement;
      if (kind === "history") need(m, "no measurement to read history by");
      const vars = pickVariables(need(kind === "history" ? found.historyVariables : (found.bufferVariables ?? found.historyVariables), "no variables of the source"), 2);
      // A start that is no bucket edge: the first bucket begins before it (the old answer put the requested start in Start).
      const start = kind === "history" ? m!.AbsoluteStart + 1237 : Math.floor(Date.now() / 1000) * 1000 - 9763;
      const end = kind === "history" ? Math.min(start + 4000, m!.LastTimeStamp) : start + 4000;
      const p = new Problems();
      for (const points of [37, null]) {
        const body = dataRequest(vars, source.Id, kind === "history" ? `mid:${m!.Id}` : "latest", { Start: start, End: end, Points: points ?? undefined });
        const answer = await api().post(`/${kind}/data`, body);
        const ts = firstTimeSeries(answer, vars.length, points);
        const times = await csvTimes(`/${kind}/data`, body);
        const at = `${answer.label} {Points: ${points}} → Data[0].TimeSeries`;
        p.expect(times.length === ts.Size, `${at}.Size ${ts.Size}: the CSV of the same request has ${times.length} rows`);
        for (let k = 0; k < Math.min(times.length, ts.Size); k++) {
          if (Math.abs(ts.Start + k * ts.Delta - times[k]!) > 0.0015) {
            p.lines.push(`${at}: Start + ${k} × Delta = ${ts.Start + k * ts.Delta}, but row ${k} is at ${times[k]} (Start ${ts.Start}, AbsoluteStart ${ts.AbsoluteStart}, requested ${start})`);
            break;
          }
        }
      }
      p.throwIfAny();
    });
  }
});

describe("UDBF (Format \"udbf\", import Type \"udbf\"; shared/design/UDBF.md)", () => {
  it("POST /history/data {Format: \"udbf\"} → a UDBF 1.07 file: every header field, and its rows = the JSON answer's values at its times", async () => {
    const source = need(found.source, "no source with data");
    const m = need(found.measurement, "no measurement to export");
    const vars = pickVariables(need(found.historyVariables, "no variables of the source"), 3);
    const start = m.AbsoluteStart + 500;
    const end = Math.min(start + 3000, m.LastTimeStamp);
    const body = dataRequest(vars, source.Id, `mid:${m.Id}`, { Start: start, End: end, Points: undefined });
    const json = await api().post("/history/data", body);
    const ts = firstTimeSeries(json, vars.length, null);
    const answer = await api().postForBytes("/history/data", { ...body, Format: "udbf" });
    const label = `${answer.label} {Format: "udbf"}`;
    if (answer.status !== 200) throw new Error(`${label} → HTTP ${answer.status}: ${clip(answer.text)}`);
    const f = readUdbf(answer.bytes);
    const p = new Problems();
    p.expect(f.version === 107, `${label} → version: expected 107, got ${f.version}`);
    p.expect(f.vendor.length > 0, `${label} → vendor: expected a text, got ${JSON.stringify(f.vendor)}`);
    p.expect(f.checksum === 0, `${label} → with checksum: expected 0 (no checksum follows the data), got ${f.checksum}`);
    p.expect(f.dayFactor > 0 && f.timeFactor > 0, `${label} → day factor ${f.dayFactor} and time factor ${f.timeFactor}: expected positive`);
    p.expect([2, 3, 4, 5, 6, 7, 8, 12, 13, 14].includes(f.timeType), `${label} → time data type: expected a number type, got ${f.timeType}`);
    p.expect(Math.abs(f.sampleRate - 1000 / ts.Delta) < 1e-6, `${label} → sample rate: expected ${1000 / ts.Delta} Hz (1000 / Delta), got ${f.sampleRate}`);
    p.expect(f.separator >= 8 && f.dataOffset % 16 === 0, `${label} → separator: expected ≥ 8 "*" up to a multiple of 16, got ${f.separator} ending at ${f.dataOffset}`);
    p.expect(f.rest === 0, `${label} → the file must end after the last whole row; ${f.rest} bytes follow it`);
    p.expect(f.variables.length === vars.length, `${label} → variable count: expected ${vars.length}, got ${f.variables.length}`);
    f.variables.forEach((v, i) => {
      const want = vars[i]!;
      p.expect(v.name === want.Name, `${label} → variable ${i + 1} name: expected ${JSON.stringify(want.Name)}, got ${JSON.stringify(v.name)}`);
      p.expect(v.unit.trim() === want.Unit.trim(), `${label} → variable ${i + 1} unit: expected ${JSON.stringify(want.Unit)}, got ${JSON.stringify(v.unit)}`);
      p.expect(v.direction <= 3 && !!TYPE_SIZES[v.type], `${label} → variable ${i + 1}: direction ${v.direction} and data type ${v.type} must be known codes`);
    });
    // Every JSON row with a value is a UDBF row at the same time with the same values.
    const jsonRows = rowsOf(ts).filter((r) => r.values.some((v) => v !== null));
    p.expect(f.rows.length === jsonRows.length, `${label}: ${f.rows.length} rows, the JSON answer has ${jsonRows.length} rows with values`);
    for (let k = 0; k < Math.min(f.rows.length, jsonRows.length); k++) {
      const row = f.rows[k]!;
      const want = jsonRows[k]!;
      if (Math.abs(row.ms - want.time) > 0.0015) {
        p.lines.push(`${label}: row ${k} at ${row.ms} ms, the JSON's at ${want.time}`);
        break;
      }
      const bad = want.values.findIndex((v, i) => (v === null ? !Number.isNaN(row.values[i]) : Math.fround(v) !== Math.fround(row.values[i]!)));
      if (bad >= 0) {
        p.lines.push(`${label}: row ${k} variable ${bad + 1} is ${row.values[bad]}, the JSON answer's ${want.values[bad]}`);
        break;
      }
    }
    p.throwIfAny();
  });

  for (const bigEndian of [false, true]) {
    it(`POST /history/data/import {Type: "udbf"} with a ${bigEndian ? "big" : "little"}-endian file written here (boolean, i16, u32, f32, f64) → read back bit for bit by mid:`, async (ctx) => {
      if (!target?.importEnabled) ctx.skip("CONFORMANCE_IMPORT=off");
      const c = api();
      const sourceId = randomUUID();
      const n = 25;
      const t0 = Date.UTC(2015, 5, 1, 12) + (bigEndian ? 3_600_000 : 0);
      const vars: UdbfVar[] = [
        { name: "Switch", direction: 0, type: 1, fieldLength: 1, precision: 0, unit: "" },
        { name: "Count", direction: 0, type: 4, fieldLength: 6, precision: 0, unit: "" },
        { name: "Pulses", direction: 0, type: 7, fieldLength: 10, precision: 0, unit: "1" },
        { name: "Current", direction: 0, type: 8, fieldLength: 10, precision: 4, unit: "mA" },
        { name: "Ratio", direction: 2, type: 12, fieldLength: 10, precision: 6, unit: "%" },
      ];
      // float32 values with every bit used; a few ns of jitter on the time stamps, as the family's files have.
      const rows = Array.from({ length: n }, (_, k) => ({
        ns: nsSince2000(t0 + k * 40) + BigInt((k * 37) % 200),
        values: [k % 2, -300 + k * 17, 16_000_000 + k, Math.fround(Math.PI * (k - 12) * 1.0001e-3), 0.5 + k / 4],
      }));
      const file = writeUdbf(vars, 25, rows, bigEndian);
      const p = new Problems();
      // The family's client sends some fields as strings.
      const open = await c.post("/history/data/import", { Type: "udbf", Target: "history", SourceID: sourceId, SourceName: `Conformance UDBF ${bigEndian ? "BE" : "LE"}`, MeasID: "", SessionTimeoutSec: "300", AddTimeSeries: "true", SampleRate: "-1", AutoCreateMetaData: "true" });
      expectStatus(open, 200);
      const session = need(open.json?.Data?.SessionId ?? open.json?.Data?.SessionID, `${open.label} → Data.SessionId missing: ${clip(open.text, 200)}`);
      // In two parts, the header cut in the middle.
      for (const part of [file.slice(0, 61), file.slice(61)]) {
        const sent = await c.postBytes(`/history/data/import/${encodeURIComponent(String(session))}`, part, "application/octet-stream");
        p.expect(sent.status === 200, `${sent.label} → HTTP ${sent.status}: ${clip(sent.text, 200)}${faultLog(sent)}`);
      }
      const closed = await c.del(`/history/data/import/${encodeURIComponent(String(session))}`);
      expectStatus(closed, 200);
      p.throwIfAny();
      const sid = encodeURIComponent(sourceId);
      const listedVars: VariableInfo[] = raw((await c.get(`/history/structure/sources/${sid}/variables`)).json);
      const byName = vars.map((v) => listedVars.find((x) => x.Name === v.name));
      p.expect(byName.every(Boolean), `GET /history/structure/sources/${sourceId}/variables → expected ${vars.map((v) => v.name).join(", ")}, got ${JSON.stringify(listedVars.map((v) => v.Name))}`);
      const meas: MeasurementInfo[] = raw((await c.post(`/history/structure/sources/${sid}/measurements`, { Order: "ASC" })).json);
      p.expect(meas.length === 1, `the imported source lists ${meas.length} measurements, expected 1`);
      p.throwIfAny();
      const read = await c.post("/history/data", dataRequest(byName as VariableInfo[], sourceId, `mid:${meas[0]!.Id}`, { Start: 0, End: 0, Points: 1000 }));
      const ts = firstTimeSeries(read, vars.length, 1000);
      const at = `${read.label} (the imported UDBF) → Data[0].TimeSeries`;
      p.expect(ts.Size === n && ts.Delta === 40 && ts.Start === t0, `${at}: expected Size ${n}, Delta 40, Start ${t0} (the rows on their nearest sample), got ${ts.Size}, ${ts.Delta}, ${ts.Start}`);
      vars.forEach((v, i) => {
        const got = ts.Values[i] as (number | null)[];
        const want = rows.map((r) => r.values[i]!);
        const bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0];
        // float32 bit for bit (the JSON's shortest decimal reads back as the same float32); the others exactly.
        const same = got.length === n && got.every((x, k) => x !== null && (v.type === 8 ? bits(x) === bits(want[k]!) : x === want[k]));
        p.expect(same, `${at}.Values[${i}] (${v.name}): expected ${JSON.stringify(want.slice(0, 6))}…, got ${JSON.stringify(got.slice(0, 6))}…`);
      });
      p.throwIfAny();
    });
  }

  it("a truncated UDBF file → HTTP 400 naming the byte offset; nothing is stored", async (ctx) => {
    if (!target?.importEnabled) ctx.skip("CONFORMANCE_IMPORT=off");
    const c = api();
    const sourceId = randomUUID();
    const file = writeUdbf([{ name: "A", direction: 0, type: 8, fieldLength: 8, precision: 2, unit: "" }], 10, [0, 1, 2].map((k) => ({ ns: nsSince2000(Date.UTC(2020, 0, 1) + k * 100), values: [k] })));
    const open = await c.post("/history/data/import", { Type: "udbf", SourceID: sourceId, SourceName: "Conformance truncated" });
    expectStatus(open, 200);
    const session = String(open.json?.Data?.SessionId ?? open.json?.Data?.SessionID);
    const sent = await c.postBytes(`/history/data/import/${encodeURIComponent(session)}`, file.slice(0, file.length - 5), "application/octet-stream");
    const closed = sent.status === 200 ? await c.del(`/history/data/import/${encodeURIComponent(session)}`) : sent;
    expect(closed.status, `${closed.label} (a file cut 5 bytes short) → expected HTTP 400, got ${closed.status}: ${clip(closed.text, 200)}`).toBe(400);
    expect(String(closed.json?.ReturnState?.Description ?? ""), `${closed.label} → ReturnState.Description: expected the byte offset named`).toMatch(/\d/);
    const sources = raw((await c.get("/history/structure/sources")).json);
    expect(sources.some((s: SourceInfo) => sameId(s.Id, sourceId)), "a refused file created its source").toBe(false);
  });
});

describe("The data client's WebSocket defaults", () => {
  it("Subscribe {IntervalMs: 1} (the client's default) → Publish frames, not an Error frame", async () => {
    const inputs = need(found.online, "no online variables").filter((v) => v.Direction !== "O");
    const vars = pickVariables(inputs, 2);
    const socket = await api().openSocket();
    try {
      socket.send(["", MsgType.Subscribe, WorkerType.OnlineData, 7, ""], { IntervalMs: 1, VIDs: vars.map((v) => String(v.Id)), ExtendedAnswer: false, OnValueChanged: false, Precision: -1 });
      await socket.until(() => publishFrames(socket).length >= 5 || errorFrames(socket).length > 0, 5000);
      expect(errorFrames(socket).map((f) => JSON.stringify(f.payload)), "Error frames for IntervalMs 1").toEqual([]);
      expect(publishFrames(socket).length, "Publish frames within 5 s of Subscribe {IntervalMs: 1}").toBeGreaterThanOrEqual(5);
    } finally {
      socket.close();
    }
  });

  it("a stream outlives its access token while the sign-in lives (a logger with 2 s tokens)", async (ctx) => {
    if (!target?.embedded) ctx.skip("needs a logger whose token lifetime the suite sets (the embedded one)");
    const short = await startEmbeddedWith({ ACCESS_TOKEN_TTL: "2", BACKFILL: "1m" });
    try {
      const { client: c } = await LoggerClient.connect({ url: short.url, user: short.user, password: short.password, clientId: short.clientId });
      const online: OnlineInfo[] = raw((await c.get("/online/structure/variables")).json);
      const vars = pickVariables(online.filter((v) => v.Direction !== "O"), 1);
      const socket = await c.openSocket();
      try {
        socket.send(["", MsgType.Subscribe, WorkerType.OnlineData, 1, ""], { IntervalMs: 100, VIDs: vars.map((v) => String(v.Id)), ExtendedAnswer: false, OnValueChanged: false, Precision: -1 });
        // Until the token no longer works for REST, then a while longer.
        let expired = false;
        for (let i = 0; i < 60 && !expired; i++) {
          expired = (await c.get("/history/structure/sources")).status === 401;
          if (!expired) await sleep(100);
        }
        expect(expired, "the 2 s access token still worked after 6 s").toBe(true);
        const before = publishFrames(socket).length;
        await socket.until(() => publishFrames(socket).length >= before + 10 || socket.closed !== null, 4000);
        expect(socket.closed, `the socket closed after its access token expired: ${socket.closed ? `${socket.closed.code} ${socket.closed.reason}` : ""}`).toBeNull();
        expect(publishFrames(socket).length, "Publish frames after the access token expired").toBeGreaterThanOrEqual(before + 10);
      } finally {
        socket.close();
      }
    } finally {
      await short.stop();
    }
  }, 60_000);
});
