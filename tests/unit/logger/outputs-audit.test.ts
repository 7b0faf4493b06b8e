import { describe, expect, it } from "vitest";
import type { DataContext } from "../../../logger/model/context.ts";
import type { Variable } from "../../../logger/model/types.ts";
import { writeOutputs } from "../../../logger/api/data/outputs.ts";

// An output write answers only once its audit message is stored, so a client that reads the audit
// log right after its write finds it (on PostgreSQL the insert takes a round trip; a CI run read
// the log before it landed). The store being away must not turn a written value into an error.

const horn: Variable = {
  Id: "v-horn", Name: "Horn", Unit: "", DataFormat: "BOOL", Direction: "O", Index: 0, Precision: 0,
  RangeMin: 0, RangeMax: 1, DeviceId: "d", ModuleId: "m", SourceId: "s", SampleRateHz: 1,
};

function fakeData(written: [string, number][]) {
  return {
    model: { variables: [horn] },
    sim: { writeOutput: (id: string, v: number) => written.push([id, v]) },
    sources: { owns: () => false },
    now: () => 1_700_000_000_000,
  } as unknown as DataContext;
}

const admin = { userId: 1, username: "admin", permissions: new Set(["ManageProject"]) };

describe("output writes and their audit message", () => {
  it("answers after the audit message is stored, not before", async () => {
    const events: string[] = [];
    const written: [string, number][] = [];
    const audit = (text: string) =>
      new Promise<void>((resolve) => setTimeout(() => {
        events.push(`stored: ${text}`);
        resolve();
      }, 30));
    const answer = await writeOutputs(fakeData(written), admin, [horn.Id], [true], audit);
    events.push("answered");
    expect(written).toEqual([[horn.Id, 1]]);
    expect(answer.Values).toEqual([1]);
    expect(events).toEqual(["stored: Set output Horn = 1", "answered"]);
  });

  it("still says written when the audit message could not be stored", async () => {
    const written: [string, number][] = [];
    const answer = await writeOutputs(fakeData(written), admin, [horn.Id], [0], () => Promise.reject(new Error("store away")));
    expect(written).toEqual([[horn.Id, 0]]);
    expect(answer).toEqual({ Values: [0], Timestamps: [1_700_000_000_000] });
  });

  it("writes nothing and stores no audit message for a refused value", async () => {
    const written: [string, number][] = [];
    const audited: string[] = [];
    await expect(writeOutputs(fakeData(written), admin, [horn.Id], [2], async (t) => void audited.push(t))).rejects.toThrow(/BOOL/);
    expect(written).toEqual([]);
    expect(audited).toEqual([]);
  });
});
