import { describe, expect, it } from "vitest";
import { browseStep } from "~/services/dataSources.form.server";
import { dropSecret, keepSecret, keptSecret } from "~/services/dataSources.pending.server";
import { checkDraft, newDraft, rowOfNode } from "~/ui/dataSources/draft";

// Without JavaScript, adding/removing a row or browsing the server before saving is a round trip:
// the password typed stays on the server under a token of this session, never in the page.

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("passwords kept across a round trip", () => {
  it("gives the secret back only to the session that typed it, until used or expired", () => {
    const t0 = 1_800_000_000_000;
    const token = keepSecret("session-a", "s3cret", t0);
    expect(token).not.toContain("s3cret");
    expect(keptSecret("session-a", token, t0 + 1000)).toBe("s3cret");
    expect(keptSecret("session-b", token, t0 + 1000)).toBeUndefined();
    expect(keptSecret("session-a", "made-up", t0)).toBeUndefined();
    expect(keptSecret("session-a", token, t0 + 31 * 60_000 + 1000)).toBeUndefined();
    const again = keepSecret("session-a", "s3cret", t0);
    dropSecret(again);
    expect(keptSecret("session-a", again, t0)).toBeUndefined();
  });
});

describe("browsing the server from the form", () => {
  it("opens a node, goes back up the path, and adds a node as a row with its name, unit, range and direction", () => {
    const draft = newDraft("opcua");
    const trail = [["browse.node", "ns=1;s=Cell"], ["browse.name", "Cell"]] as [string, string][];
    expect(browseStep("browse", form(trail), draft)!.trail).toEqual([]);
    expect(browseStep(`browseOpen:${JSON.stringify({ nodeId: "ns=1;s=Cell.Motor", name: "Motor" })}`, form(trail), draft)!.trail).toEqual([
      { nodeId: "ns=1;s=Cell", name: "Cell" },
      { nodeId: "ns=1;s=Cell.Motor", name: "Motor" },
    ]);
    expect(browseStep("browseTo:0", form(trail), draft)!.trail).toEqual([]);
    expect(browseStep("browseClose", form(trail), draft)).toBeNull();
    const node = { NodeId: "ns=1;s=Cell.Setpoint", DisplayName: "Setpoint", Unit: "°C", RangeMin: 0, RangeMax: 100, Writable: true };
    const added = browseStep(`browseAdd:${JSON.stringify(node)}`, form(trail), draft)!;
    expect(added.trail).toEqual([{ nodeId: "ns=1;s=Cell", name: "Cell" }]);
    expect(added.draft.variables).toEqual([expect.objectContaining({ Name: "Setpoint", Unit: "°C", RangeMin: "0", RangeMax: "100", Direction: "IO", "Address.NodeId": "ns=1;s=Cell.Setpoint", VariableId: "" })]);
    // Twice the same node: one row.
    expect(browseStep(`browseAdd:${JSON.stringify(node)}`, form(trail), added.draft)!.draft.variables).toHaveLength(1);
    expect(() => browseStep("browseAdd:{not json", form([]), draft)).toThrow();
  });

  it("names a row uniquely among the form's rows", () => {
    const draft = { ...newDraft("opcua"), variables: [rowOfNode(newDraft("opcua"), { NodeId: "a", DisplayName: "Speed" })] };
    expect(rowOfNode(draft, { NodeId: "b", DisplayName: "Speed" }).Name).toBe("Speed 2");
    expect(rowOfNode(draft, { NodeId: "ns=1;s=x" })).toMatchObject({ Name: "ns=1;s=x", Direction: "I", RangeMin: "0", RangeMax: "100" });
  });
});

describe("the server certificate on the form", () => {
  const opcua = (values: Record<string, string>) => ({ ...newDraft("opcua"), values: { ...newDraft("opcua").values, Name: "Press", "Connection.Endpoint": "opc.tcp://plc:4840", ...values } });
  const check = (values: Record<string, string>) => checkDraft(opcua(values), { typed: "", clear: false }, null);

  it("trusts on first use by default and takes a fingerprint written with spaces or lower case", () => {
    expect(check({}).payload?.Connection).toMatchObject({ Trust: "firstUse", Fingerprint: "" });
    const secure = { "Connection.SecurityMode": "Sign", "Connection.SecurityPolicy": "Basic256Sha256", "Connection.Trust": "fingerprint" };
    expect(check({ ...secure, "Connection.Fingerprint": Array(32).fill("ab").join(" ") }).payload?.Connection).toMatchObject({ Trust: "fingerprint", Fingerprint: Array(32).fill("AB").join(":") });
    expect(check({ ...secure, "Connection.Fingerprint": "" }).errors["Connection.Fingerprint"]).toEqual([{ key: "dataSources.errors.fingerprint", values: undefined }]);
    expect(check({ "Connection.Trust": "fingerprint", "Connection.Fingerprint": "ab".repeat(32) }).errors["Connection.Trust"]).toEqual([{ key: "dataSources.errors.trustNeedsSecurity", values: undefined }]);
  });
});
