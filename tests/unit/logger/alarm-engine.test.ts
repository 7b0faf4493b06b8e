import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AlarmEngine } from "../../../logger/alarms/engine.ts";
import { Notifier } from "../../../logger/alarms/notifier.ts";
import type { Rule } from "../../../logger/alarms/types.ts";
import type { Model, Variable } from "../../../logger/model/types.ts";
import { getAlarmRow, insertRule, queryHistory } from "../../../logger/store/alarms.ts";
import type { RuleInput } from "../../../logger/store/alarms.ts";
import type { Db } from "../../../logger/store/db.ts";
import { queryMessages } from "../../../logger/store/messages.ts";
import { migrate } from "../../../logger/store/migrations.ts";
import { TraceLog } from "../../../logger/trace.ts";
import { tempDir } from "./helpers.ts";
import { openTestDb } from "../../support/testStore.ts";

const VAR = "var-oil";
const PERIOD_US = 10_000; // 100 Hz
const T0 = Date.UTC(2026, 10, 3, 9);
const FIRST = (T0 * 1000) / PERIOD_US;

const model: Model = {
  devices: [],
  sources: [],
  variables: [{ Id: VAR, Name: "Oil temperature", Unit: "°C", Precision: 1, DeviceId: "dev-1" } as Variable],
};

const rule = (over: Partial<RuleInput> = {}): RuleInput => ({
  Name: "Oil hot",
  VariableId: VAR,
  Type: "high",
  Severity: "critical",
  High: 90,
  Low: null,
  Deadband: 2,
  RatePerSec: null,
  WindowSec: 1,
  StaleSec: null,
  State: null,
  OnDelaySec: 0,
  OffDelaySec: 0,
  Message: "{rule}: {variable} at {value} {unit} (limit {limit})",
  InService: true,
  NotifyTargets: [],
  NotifyOn: [],
  ...over,
});

describe("alarm engine", () => {
  let dir: string;
  let db: Db;
  let now: number;
  let engine: AlarmEngine;
  let notifier: Notifier;
  let next: number;

  /** Appends samples at 100 Hz after the previous ones, in batches of `batch`. */
  async function feed(values: number[], batch = values.length) {
    for (let i = 0; i < values.length; i += batch) {
      const part = Float32Array.from(values.slice(i, i + batch));
      engine.onSamples(VAR, next, PERIOD_US, part);
      next += part.length;
    }
    now = (next * PERIOD_US) / 1000;
    // Transitions are stored in the engine's queue; wait until it has stored them.
    await engine.settled();
  }
  const history = async (id: number) => (await queryHistory(db, { RuleID: id, Limit: 100, Offset: 0 })).History.toReversed();
  const alarming = async () => (await queryMessages(db, { Sender: "Alarming", Limit: 100, Offset: 0 })).Messages.toReversed();
  const alarmRow = async (id: number) => (await getAlarmRow(db, id))!;

  beforeEach(async () => {
    dir = tempDir();
    db = await openTestDb(dir); // the run's engine: PostgreSQL under npm run test:pg
    await migrate(db);
    now = T0;
    next = FIRST;
    notifier = new Notifier(db, new TraceLog(null));
    engine = new AlarmEngine(db, model, notifier, new TraceLog(null), () => now);
    await engine.settled();
  });
  afterEach(async () => {
    engine.close();
    notifier.close();
    await engine.settled();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function addRule(over: Partial<RuleInput> = {}): Promise<Rule["ID"]> {
    const id = await db.tx((q) => insertRule(q, rule(over), new Date(now).toISOString()));
    await engine.reload();
    return id;
  }

  it("keeps the value that raised the alarm on its row after it returns; the history has both (issue 26 §4)", async () => {
    const id = await addRule();
    await feed([80, 93.5]);
    expect(await alarmRow(id)).toMatchObject({ State: "ActiveUnacknowledged", Value: 93.5 });
    await feed([84]);
    // Returned, not acknowledged: the row still says what raised it (the console labels it "at activation").
    expect(await alarmRow(id)).toMatchObject({ State: "ReturnedUnacknowledged", Active: false, Value: 93.5 });
    const events = (await history(id)).map((h) => [h.Event, h.Value]);
    expect(events).toEqual([
      ["Activated", 93.5],
      ["Cleared", 84],
    ]);
    expect((await alarming()).at(-1)?.Text).toContain("returned to normal (84");
    await feed([96]);
    expect(await alarmRow(id)).toMatchObject({ State: "ActiveUnacknowledged", Value: 96 });
  });

  it("walks the full lifecycle and writes history and messages", async () => {
    const id = await addRule();
    await feed([80, 85, 91]);
    expect(await alarmRow(id)).toMatchObject({ State: "ActiveUnacknowledged", Active: true, Value: 91 });
    expect(await engine.acknowledge([id], "alice", "Checking the cooler")).toEqual([id]);
    expect(await alarmRow(id)).toMatchObject({ State: "ActiveAcknowledged", AckedBy: "alice", AckComment: "Checking the cooler" });
    await feed([89, 87]);
    expect((await alarmRow(id)).State).toBe("Normal");
    // Cleared before anyone acknowledged: returned unacknowledged, normal on acknowledge.
    await feed([95]);
    await feed([80]);
    expect((await alarmRow(id)).State).toBe("ReturnedUnacknowledged");
    expect(await engine.acknowledge([id], "bob", "")).toEqual([id]);
    expect((await alarmRow(id)).State).toBe("Normal");
    expect(await engine.acknowledge([id], "bob", "")).toEqual([]);

    expect((await history(id)).map((h) => [h.Event, h.FromState, h.ToState, h.User])).toEqual([
      ["Activated", "Normal", "ActiveUnacknowledged", ""],
      ["Acknowledged", "ActiveUnacknowledged", "ActiveAcknowledged", "alice"],
      ["Cleared", "ActiveAcknowledged", "Normal", ""],
      ["Activated", "Normal", "ActiveUnacknowledged", ""],
      ["Cleared", "ActiveUnacknowledged", "ReturnedUnacknowledged", ""],
      ["Acknowledged", "ReturnedUnacknowledged", "Normal", "bob"],
    ]);
    // Condition transitions carry the sample's time: the same samples give the same history.
    expect((await history(id))[0]!.Timestamp).toBe(new Date(T0 + 20).toISOString());
    const msgs = await alarming();
    expect(msgs).toHaveLength(6);
    expect(msgs[0]).toMatchObject({ Sender: "Alarming", Topic: "Oil hot", Type: "Error", Text: "Oil hot: Oil temperature at 91.0 °C (limit 90)", Args: ["Activated", "ActiveUnacknowledged"] });
    expect(msgs[1]).toMatchObject({ Type: "Info", Text: "Oil hot acknowledged by alice: Checking the cooler" });
    expect(msgs[2]).toMatchObject({ Type: "Success", Args: ["Cleared", "Normal"] });
  });

  it("gives the message type by severity", async () => {
    const types: Record<string, string> = {};
    for (const severity of ["critical", "high", "medium", "low"] as const) {
      await addRule({ Name: `R ${severity}`, Severity: severity });
    }
    await feed([100]);
    for (const m of await alarming()) types[m.Topic] = m.Type;
    expect(types).toEqual({ "R critical": "Error", "R high": "Error", "R medium": "Warning", "R low": "Info" });
  });

  it("raises one alarm per condition, however fast and however batched the samples come", async () => {
    const a = await addRule({ Name: "A" });
    // 20 s of a noisy value hovering around the limit, well inside the deadband.
    const values = Array.from({ length: 2000 }, (_, i) => 91 + Math.sin(i) * 2.5);
    await feed(values, 1);
    await feed(values, 997);
    await feed(values);
    expect((await history(a)).map((h) => h.Event)).toEqual(["Activated"]);
    expect(await alarming()).toHaveLength(1);
  });

  it("shelves for a while: suppressed, then back by itself when the time is up", async () => {
    const id = await addRule();
    await feed([95]);
    expect(await engine.shelve(id, 60, "Sensor being replaced", "alice")).toBe("Shelved");
    expect(await alarmRow(id)).toMatchObject({ State: "Shelved", ShelvedBy: "alice", ShelveReason: "Sensor being replaced" });
    // Changes while shelved are followed but not announced.
    await feed([80]);
    await feed([96]);
    expect(await alarmRow(id)).toMatchObject({ State: "Shelved", Active: true });
    await engine.tick(now + 59_000);
    expect((await alarmRow(id)).State).toBe("Shelved");
    await engine.tick(now + 61_000);
    expect(await alarmRow(id)).toMatchObject({ State: "ActiveUnacknowledged", ShelvedUntil: null });
    expect((await history(id)).map((h) => h.Event)).toEqual(["Activated", "Shelved", "ShelveExpired"]);
    // Unshelving by hand while the condition is gone returns to normal.
    await engine.shelve(id, 3600, "again", "alice");
    await feed([70]);
    expect(await engine.unshelve(id, "bob")).toBe("Normal");
  });

  it("out of service: nothing is announced until the rule is back in service", async () => {
    const id = await addRule({ InService: false });
    expect((await alarmRow(id)).State).toBe("OutOfService");
    await feed([99]);
    expect(await alarming()).toHaveLength(0);
    await db.run("UPDATE alarm_rules SET InService = 1, Version = Version + 1 WHERE ID = ?", id);
    await engine.reload();
    await engine.serviceChanged(id, "alice");
    expect((await alarmRow(id)).State).toBe("ActiveUnacknowledged");
  });

  it("keeps the condition across a restart: no second alarm for the same condition", async () => {
    const id = await addRule();
    await feed([95]);
    const again = new AlarmEngine(db, model, notifier, new TraceLog(null), () => now);
    await again.settled();
    again.onSamples(VAR, next, PERIOD_US, Float32Array.from([96, 97]));
    await again.settled();
    expect((await history(id)).map((h) => h.Event)).toEqual(["Activated"]);
    again.close();
  });

  it("raises a stale alarm from the clock", async () => {
    const id = await addRule({ Name: "No data", Type: "stale", High: null, StaleSec: 10, Severity: "medium" });
    await feed([50]);
    await engine.tick(now + 9_000);
    expect((await alarmRow(id)).State).toBe("Normal");
    await engine.tick(now + 11_000);
    expect((await alarmRow(id)).State).toBe("ActiveUnacknowledged");
    expect((await alarming())[0]).toMatchObject({ Topic: "No data", Type: "Warning" });
  });
});
