import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TYPE } from "../../../logger/udbf/format.ts";
import { UdbfRows, udbfHeader } from "../../../logger/udbf/writer.ts";
import type { UdbfVariable } from "../../../logger/udbf/writer.ts";
import { ADMIN_PASSWORD, login, sleep, start, tempDir } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// A UDBF import into a source the embedded store holds nothing of is written while it arrives
// (issue 27; logger/store/series/streamed-import.ts): its rows go to series.db under keys no
// variable has, the close adopts them, and whatever ends an import otherwise deletes them — a
// refused file, a cancel, an expiry, and a logger stopped halfway (at its next start).

const VARS: UdbfVariable[] = Array.from({ length: 6 }, (_, c) => ({ name: `Channel ${c + 1}`, unit: "mA", direction: 0, type: TYPE.f32, precision: 3 }));
// Noise, as a noisy channel records it: ~3.5 bytes a sample packed, so that some of an import's
// rows leave the packer before its close (it hands them over 1 MB at a time).
const value = (r: number, c: number) => Math.fround((((Math.sin(r * 12.9898 + c * 78.233) * 43758.5453) % 1) + c) * 100);
/** A sample as the JSON answer gives it (float32 in its shortest form) back as float32. */
const f32 = (v: number | null | undefined) => (v === null || v === undefined ? v : Math.fround(v));

/** A 1 kHz recording of VARS from t0 (µs), rows [from, to), as the family's controllers write it. */
function recording(t0: number, rows: number, at = (r: number) => t0 + r * 1000): Uint8Array {
  const header = udbfHeader(VARS, 1000, t0 / 1000);
  const enc = new UdbfRows(header, VARS.map((v) => v.type), rows);
  for (let r = 0; r < rows; r++) {
    enc.time(at(r));
    for (let c = 0; c < VARS.length; c++) enc.value(c, value(r, c));
  }
  const body = enc.take();
  const out = new Uint8Array(header.bytes.length + body.length);
  out.set(header.bytes);
  out.set(body, header.bytes.length);
  return out;
}

/** Keys with rows in series.db that no variable claims (an import's before its close). */
function unclaimed(dataDir: string): { keys: number; rows: number } {
  const db = new DatabaseSync(join(dataDir, "series.db"), { readOnly: true });
  try {
    const claimed = new Set((db.prepare("SELECT Key FROM series_vars UNION SELECT Key FROM series_parts").all() as { Key: number }[]).map((r) => r.Key));
    const byKey = db.prepare("SELECT (Id >> 43) AS Key, count(*) AS n FROM series_rows GROUP BY Id >> 43").all() as { Key: number; n: number }[];
    const open = byKey.filter((r) => !claimed.has(Number(r.Key)));
    return { keys: open.length, rows: open.reduce((n, r) => n + Number(r.n), 0) };
  } finally {
    db.close();
  }
}

function client(lg: () => TestLogger, token: () => string) {
  return async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token()}` };
    let payload: BodyInit | undefined;
    if (body instanceof Uint8Array) (payload = body as BodyInit), (headers["Content-Type"] = "application/octet-stream");
    else if (body !== undefined) (payload = JSON.stringify(body)), (headers["Content-Type"] = "application/json");
    const res = await fetch(`${lg().url}${path}`, { method, headers, body: payload });
    return { status: res.status, body: (await res.json()) as any };
  };
}

/** Waits until the packer's first rows are in series.db (it packs after a part has been answered). */
async function written(dataDir: string): Promise<{ keys: number; rows: number }> {
  for (let i = 0; i < 200 && unclaimed(dataDir).keys < VARS.length; i++) await sleep(50);
  return unclaimed(dataDir);
}

/** Sends bytes in parts of `part` bytes; the answers' statuses. */
async function send(call: ReturnType<typeof client>, id: string, bytes: Uint8Array, part: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let at = 0; at < bytes.length; at += part) statuses.push((await call("POST", `/history/data/import/${id}`, bytes.subarray(at, at + part))).status);
  return statuses;
}

describe("a UDBF import written while it arrives", () => {
  let lg: TestLogger;
  let admin: string;
  const call = client(() => lg, () => admin);
  const t0 = Date.UTC(2018, 4, 2, 6, 0, 0) * 1000;
  // 100,000 rows (2.8 MB): several of the reader's batches and the store's blocks per variable.
  const ROWS = 100_000;

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  const values = async (sourceId: string, ids: string[], start: number, end: number) => {
    const res = await call("POST", "/history/data", { Start: start, End: end, Variables: ids.map((id) => ({ SID: sourceId, VID: id })) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.Data[0].TimeSeries as { Start: number; Delta: number; Values: (number | null)[][] };
  };

  it("stores the rows before the close under keys no variable has; the close adopts them, and the source takes a later import after them", async () => {
    const bytes = recording(t0, ROWS);
    const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceID: "streamed", SourceName: "Streamed" })).body.Data.SessionId;
    expect(await send(call, id, bytes, 300_000)).toEqual(expect.arrayContaining([200]));
    // Written already, read by nobody: the source does not exist yet.
    const waiting = await written(lg.dataDir);
    expect(waiting.keys).toBe(VARS.length);
    expect(waiting.rows).toBeGreaterThan(VARS.length * 10);
    expect((await call("GET", "/history/structure/sources")).body.Data.some((s: { Id: string }) => s.Id === "streamed")).toBe(false);
    const closed = await call("DELETE", `/history/data/import/${id}`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.Data).toMatchObject({ Rows: ROWS, SampleRateHz: 1000, Start: t0 / 1000, End: t0 / 1000 + ROWS });
    expect(unclaimed(lg.dataDir)).toEqual({ keys: 0, rows: 0 });
    const ids = closed.body.Data.Variables.map((v: { Id: string }) => v.Id);
    const ts = await values("streamed", ids, t0 / 1000, t0 / 1000 + ROWS);
    expect(ts.Values[0]!.length).toBe(ROWS);
    for (let c = 0; c < VARS.length; c++) for (let r = 0; r < ROWS; r += 997) expect(f32(ts.Values[c]![r]), `row ${r} column ${c}`).toBe(value(r, c));
    expect(f32(ts.Values[5]![ROWS - 1])).toBe(value(ROWS - 1, 5));

    // Into the source that now exists (spooled, appended to the adopted write state): right after
    // the first recording, so the last block and every rollup chunk the first left open go on.
    const next = recording(t0 + ROWS * 1000, 5000, (r) => t0 + (ROWS + r) * 1000);
    const id2 = (await call("POST", "/history/data/import", { Type: "udbf", SourceID: "streamed", SourceName: "Streamed" })).body.Data.SessionId;
    expect(await send(call, id2, next, 1 << 20)).toEqual([200]);
    const closed2 = await call("DELETE", `/history/data/import/${id2}`);
    expect(closed2.status, JSON.stringify(closed2.body)).toBe(200);
    expect(closed2.body.Data.Variables.map((v: { Id: string }) => v.Id)).toEqual(ids);
    const both = await values("streamed", ids, t0 / 1000 + ROWS - 3, t0 / 1000 + ROWS + 3);
    expect(both.Values[2]!.map(f32)).toEqual([value(ROWS - 3, 2), value(ROWS - 2, 2), value(ROWS - 1, 2), value(0, 2), value(1, 2), value(2, 2)]);
    // The rollups over both: a 1-bucket mean of the whole span equals the samples' mean.
    const mean = (await call("POST", "/history/data", { Start: t0 / 1000, End: t0 / 1000 + ROWS + 5000, Points: 1, Variables: [{ SID: "streamed", VID: ids[0] }] })).body.Data[0].TimeSeries.Values[0][0];
    let sum = 0;
    for (let r = 0; r < ROWS; r++) sum += value(r, 0);
    for (let r = 0; r < 5000; r++) sum += value(r, 0);
    expect(mean).toBeCloseTo(sum / (ROWS + 5000), 3);
  });

  it("deletes what it wrote when a later part is refused, a session is cancelled or expires", async () => {
    const sources = (await call("GET", "/history/structure/sources")).body.Data.length;
    // Row 90,000 goes back in time: refused in its part, after most rows were written.
    const bad = recording(t0, ROWS, (r) => (r === 90_000 ? t0 : t0 + r * 1000));
    const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Refused" })).body.Data.SessionId;
    const statuses = await send(call, id, bad, 300_000);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(400);
    expect(unclaimed(lg.dataDir)).toEqual({ keys: 0, rows: 0 });

    const id2 = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Cancelled" })).body.Data.SessionId;
    await send(call, id2, recording(t0, ROWS).subarray(0, 2_500_000), 500_000);
    expect((await written(lg.dataDir)).keys).toBe(VARS.length);
    expect((await call("POST", `/history/data/import/${id2}/cancel`)).status).toBe(200);
    expect(unclaimed(lg.dataDir)).toEqual({ keys: 0, rows: 0 });

    // Expiry ends the session the same way (drop); its rows may or may not be out of the packer
    // by then, so only the end is asserted: the session gone, nothing left.
    const id3 = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Expired", SessionTimeoutSec: 1 })).body.Data.SessionId;
    await send(call, id3, recording(t0, ROWS).subarray(0, 2_500_000), 500_000);
    for (let i = 0; i < 100 && (await call("GET", `/history/data/import/${id3}`)).status !== 404; i++) await sleep(100);
    expect((await call("GET", `/history/data/import/${id3}`)).status).toBe(404);
    expect(unclaimed(lg.dataDir)).toEqual({ keys: 0, rows: 0 });
    expect((await call("GET", "/history/structure/sources")).body.Data.length).toBe(sources);
  });

  it("commits a staged file read in 4 MB pieces, several of the reader's batches each (queued for the packer)", async () => {
    // 250,000 rows × 28 bytes = 7 MB: two pieces of 4 MB, each decoded into four 1 MB batches
    // while the packer takes three at a time.
    const big = recording(t0, 250_000);
    const id = (await call("POST", "/history/data/import", { Staged: true, SourceName: "Staged big" })).body.Data.SessionId;
    expect(new Set(await send(call, id, big, 2_000_000))).toEqual(new Set([200]));
    const committed = await call("POST", `/history/data/import/${id}/commit`, { Type: "udbf" });
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.Data.Rows).toBe(250_000);
    expect(unclaimed(lg.dataDir)).toEqual({ keys: 0, rows: 0 });
    const d = committed.body.Data;
    const ts = await values(d.SourceId, [d.Variables[4].Id], t0 / 1000, t0 / 1000 + 250_000);
    expect(ts.Values[0]!.length).toBe(250_000);
    for (let r = 0; r < 250_000; r += 4999) expect(f32(ts.Values[0]![r]), `row ${r}`).toBe(value(r, 4));
    expect(f32(ts.Values[0]![249_999])).toBe(value(249_999, 4));
  });

  it("takes two imports at once, each into its own source", async () => {
    const a = recording(t0, ROWS);
    const b = recording(t0 + 7_000_000, 30_000, (r) => t0 + 7_000_000 + r * 1000);
    const ida = (await call("POST", "/history/data/import", { Type: "udbf", SourceID: "twin-a", SourceName: "Twin A" })).body.Data.SessionId;
    const idb = (await call("POST", "/history/data/import", { Type: "udbf", SourceID: "twin-b", SourceName: "Twin B" })).body.Data.SessionId;
    const part = 250_000;
    for (let at = 0; at < a.length; at += part) {
      const sent = await Promise.all([call("POST", `/history/data/import/${ida}`, a.subarray(at, at + part)), ...(at < b.length ? [call("POST", `/history/data/import/${idb}`, b.subarray(at, at + part))] : [])]);
      expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
    }
    const [ca, cb] = await Promise.all([call("DELETE", `/history/data/import/${ida}`), call("DELETE", `/history/data/import/${idb}`)]);
    expect([ca.status, cb.status]).toEqual([200, 200]);
    const ta = await values("twin-a", [ca.body.Data.Variables[3].Id], t0 / 1000, t0 / 1000 + ROWS);
    const tb = await values("twin-b", [cb.body.Data.Variables[3].Id], t0 / 1000 + 7000, t0 / 1000 + 7000 + 30_000);
    for (let r = 0; r < ROWS; r += 1009) expect(f32(ta.Values[0]![r])).toBe(value(r, 3));
    for (let r = 0; r < 30_000; r += 1009) expect(f32(tb.Values[0]![r])).toBe(value(r, 3));
    expect(ta.Values[0]!.length).toBe(ROWS);
    expect(tb.Values[0]!.length).toBe(30_000);
  });
});

describe("an import cut short by a stop", () => {
  it("leaves rows no variable claims, which the next start deletes; new variables do not meet them", async () => {
    const dataDir = tempDir();
    try {
      let lg = await start({ adminPassword: ADMIN_PASSWORD, dataDir });
      let token = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const call = client(() => lg, () => token);
      const t0 = Date.UTC(2020, 0, 1) * 1000;
      const id = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "Halfway" })).body.Data.SessionId;
      await send(call, id, recording(t0, 100_000).subarray(0, 2_500_000), 500_000);
      expect((await written(dataDir)).keys).toBe(VARS.length);
      await lg.close();
      lg = await start({ adminPassword: ADMIN_PASSWORD, dataDir });
      token = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      expect(unclaimed(dataDir)).toEqual({ keys: 0, rows: 0 });
      // A new import's variables get keys of their own and only their own rows.
      const small = recording(t0, 3000);
      const id2 = (await call("POST", "/history/data/import", { Type: "udbf", SourceName: "After" })).body.Data.SessionId;
      expect(await send(call, id2, small, 1 << 20)).toEqual([200]);
      const closed = await call("DELETE", `/history/data/import/${id2}`);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      const res = await call("POST", "/history/data", { Start: t0 / 1000, End: t0 / 1000 + 100_000, Variables: [{ SID: closed.body.Data.SourceId, VID: closed.body.Data.Variables[1].Id }] });
      const v = res.body.Data[0].TimeSeries.Values[0] as (number | null)[];
      expect(v.filter((x) => x !== null).length).toBe(3000);
      expect(f32(v[2999])).toBe(value(2999, 1));
      await lg.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
