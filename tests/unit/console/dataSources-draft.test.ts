import { describe, expect, it } from "vitest";
import { checkDraft, draftFromForm, draftOf, loggerErrors, newDraft, newVariable } from "~/ui/dataSources/draft";

// The data-source form (issue 16): what the page posts becomes the logger's Set payload, every
// refusal lands on the field that caused it, and a round trip keeps what was typed.

const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.append(k, v);
  return f;
};
const keys = (errors: Record<string, unknown>) => Object.keys(errors).sort();

describe("data-source draft", () => {
  it("reads the posted rows in index order, renumbered, and turns them into the Set payload", () => {
    const draft = draftFromForm(
      form({
        Name: " Line 1 ", PeriodMs: "200", Enabled: "on", "Connection.Url": "mqtt://broker:1883", "Connection.Username": "", "Connection.ClientId": "",
        "Variables.7.VariableId": "", "Variables.7.Name": "B", "Variables.7.RangeMin": "0", "Variables.7.RangeMax": "1", "Variables.7.Precision": "0", "Variables.7.Direction": "O", "Variables.7.Unit": "", "Variables.7.Address.Topic": "x/set", "Variables.7.Address.Qos": "1", "Variables.7.Address.JsonPath": "", "Variables.7.Address.TimestampPath": "",
        "Variables.2.VariableId": "ds1v1", "Variables.2.Name": "A", "Variables.2.RangeMin": "-1,5", "Variables.2.RangeMax": "10", "Variables.2.Precision": "2", "Variables.2.Direction": "I", "Variables.2.Unit": "°C", "Variables.2.Address.Topic": "x/+/temp", "Variables.2.Address.Qos": "0", "Variables.2.Address.JsonPath": "data.values[2]", "Variables.2.Address.TimestampPath": "ts",
      }),
      "mqtt",
    );
    expect(draft.variables.map((v) => v.Name)).toEqual(["A", "B"]);
    const { payload, errors } = checkDraft(draft, { typed: "pw", clear: false }, 4);
    expect(errors).toEqual({});
    expect(payload).toEqual({
      ID: 4, Name: "Line 1", Protocol: "mqtt", Enabled: true, PeriodMs: 200,
      Connection: { Url: "mqtt://broker:1883", Username: "", ClientId: "", Password: "pw" },
      Variables: [
        { VariableId: "ds1v1", Name: "A", Unit: "°C", RangeMin: -1.5, RangeMax: 10, Precision: 2, Direction: "I", Address: { Topic: "x/+/temp", JsonPath: "data.values[2]", TimestampPath: "ts", Qos: 0 } },
        { VariableId: "", Name: "B", Unit: "", RangeMin: 0, RangeMax: 1, Precision: 0, Direction: "O", Address: { Topic: "x/set", JsonPath: "", TimestampPath: "", Qos: 1 } },
      ],
    });
  });

  it("keeps a stored password unless one is typed, removes it when asked", () => {
    const draft = { ...newDraft("opcua"), values: { ...newDraft("opcua").values, Name: "P", "Connection.Endpoint": "opc.tcp://plc:4840" } };
    expect(checkDraft(draft, { typed: "", clear: false }, 3).payload?.Connection).not.toHaveProperty("Password");
    expect((checkDraft(draft, { typed: "new", clear: true }, 3).payload?.Connection as { Password: string }).Password).toBe("");
    expect(checkDraft(newDraft("modbus"), { typed: "x", clear: false }, null).payload).toBeNull();
  });

  it("names the field of every rule it checks", () => {
    const draft = newDraft("modbus");
    draft.values = { ...draft.values, Name: "", PeriodMs: "5", "Connection.Host": "", "Connection.Port": "70000" };
    const a = { ...newVariable("modbus"), Name: "X", Direction: "O", "Address.Register": "input", "Address.Scale": "0" };
    const b = { ...newVariable("modbus"), Name: "x", RangeMin: "3", RangeMax: "3", "Address.Address": "65535", "Address.Type": "float64" };
    draft.variables = [a, b];
    const { payload, errors } = checkDraft(draft, { typed: "", clear: false }, null);
    expect(payload).toBeNull();
    expect(keys(errors)).toEqual(["Connection.Host", "Connection.Port", "Name", "PeriodMs", "Variables.0.Address.Register", "Variables.0.Address.Scale", "Variables.1.Name", "Variables.1.RangeMax"]);
    expect(errors["Variables.1.Name"]).toEqual([{ key: "dataSources.errors.duplicateName", values: { row: 1 } }]);
  });

  it("refuses a source's or a variable's name with an invisible character next to it, in the reader's words", () => {
    const draft = newDraft("modbus");
    draft.values = { ...draft.values, Name: "Line\u200b1", PeriodMs: "200", "Connection.Host": "127.0.0.1", "Connection.Port": "502" };
    draft.variables = [{ ...newVariable("modbus"), Name: "Wave\u202e" }];
    const { payload, errors } = checkDraft(draft, { typed: "", clear: false }, null);
    expect(payload).toBeNull();
    expect(errors.Name).toEqual([{ key: "validation.invisibleCharacters" }]);
    expect(errors["Variables.0.Name"]).toEqual([{ key: "validation.invisibleCharacters" }]);
  });

  it("checks MQTT topics as the logger does: wildcards only for inputs, alone between slashes", () => {
    const draft = newDraft("mqtt");
    draft.values.Name = "M";
    const row = (Topic: string, Direction = "I") => ({ ...newVariable("mqtt"), Name: `${Topic}${Direction}`, Direction, "Address.Topic": Topic });
    draft.variables = [row("a/#"), row("a/+/b"), row("a/#/b"), row("a/b+"), row("a/+", "IO"), row("")];
    const { errors } = checkDraft(draft, { typed: "", clear: false }, null);
    expect(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, (v[0] as { key: string }).key]))).toEqual({
      "Variables.2.Address.Topic": "dataSources.errors.topicWildcard",
      "Variables.3.Address.Topic": "dataSources.errors.topicWildcard",
      "Variables.4.Address.Topic": "dataSources.errors.topicOutputWildcard",
      "Variables.5.Address.Topic": "dataSources.errors.topicEmpty",
    });
  });

  it("puts the logger's refusal next to the field its Description names", () => {
    const draft = newDraft("mqtt");
    draft.variables = [newVariable("mqtt"), newVariable("mqtt")];
    const errors = loggerErrors(
      "Invalid parameter Source.Variables.1.Address.Topic: Topic must not be empty; Invalid parameter Source.Name: device Bench already has this name; Invalid parameter Source.Variables.0: odd; Invalid parameter Source.Other: x",
      draft,
    );
    expect(errors).toEqual({
      "Variables.1.Address.Topic": [{ text: "Topic must not be empty" }],
      Name: [{ text: "device Bench already has this name" }],
      "Variables.0.Name": [{ text: "odd" }],
      form: [{ text: "x" }],
    });
    expect(loggerErrors("Data source store is busy", draft)).toEqual({ form: [{ text: "Data source store is busy" }] });
  });

  it("shows a stored source as the form's strings and back unchanged", () => {
    const stored = {
      ID: 2, Name: "PLC", Enabled: false, PeriodMs: 100, DeviceId: "ds2", Protocol: "modbus" as const,
      Connection: { Host: "10.0.0.2", Port: 502, UnitId: 1, TimeoutMs: 1000 },
      Variables: [{ VariableId: "ds2v1", Name: "W", Unit: "", RangeMin: -10, RangeMax: 10, Precision: 2, Direction: "IO" as const, Address: { Register: "holding" as const, Address: 4, Type: "float32" as const, WordOrder: "little" as const, ByteOrder: "big" as const, Scale: 0.5, Offset: 1 } }],
    };
    const { payload, errors } = checkDraft(draftOf(stored), { typed: "", clear: false }, 2);
    expect(errors).toEqual({});
    const { DeviceId: _d, ...input } = stored;
    expect(payload).toEqual(input);
  });
});
