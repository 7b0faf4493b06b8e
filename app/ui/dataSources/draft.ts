import {
  BYTE_ORDERS,
  DIRECTIONS,
  MODBUS_REGISTERS,
  MODBUS_TYPES,
  OPCUA_AUTH,
  OPCUA_SECURITY_MODES,
  OPCUA_SECURITY_POLICIES,
  OPCUA_TRUST,
  PROTOCOLS,
  type DataSourceView,
  type Protocol,
} from "~/services/logger/sourceSchemas";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS } from "~/schemas/visibleText";

// The data-source form as the page holds it: every field a string under the name the logger's
// own error texts use ("Connection.Url", "Variables.2.Address.Topic"), so a refusal maps straight
// onto the field that caused it and a re-rendered form keeps everything typed. Client-safe: the
// action parses and checks with it, the component renders from it.

/** A message next to a field: a text key with its values, or the logger's own words. */
export type Message = { key: string; values?: Record<string, string | number> } | { text: string };
export type Errors = Record<string, Message[]>;

export type Values = Record<string, string>;
export interface Draft {
  protocol: Protocol;
  /** Top-level fields and Connection.* (passwords never). */
  values: Values;
  /** One map per row: VariableId, Name, …, Address.* */
  variables: Values[];
}

export const CONNECTION_FIELDS: Record<Protocol, readonly string[]> = {
  mqtt: ["Url", "Username", "ClientId"],
  modbus: ["Host", "Port", "UnitId", "TimeoutMs"],
  opcua: ["Endpoint", "SecurityMode", "SecurityPolicy", "Auth", "Username", "Trust", "Fingerprint"],
};
export const ADDRESS_FIELDS: Record<Protocol, readonly string[]> = {
  mqtt: ["Topic", "JsonPath", "TimestampPath", "Qos"],
  modbus: ["Register", "Address", "Type", "WordOrder", "ByteOrder", "Scale", "Offset"],
  opcua: ["NodeId"],
};
const VARIABLE_FIELDS = ["VariableId", "Name", "Unit", "RangeMin", "RangeMax", "Precision", "Direction"] as const;
export const hasPasswordField = (protocol: Protocol) => protocol !== "modbus";

const CONNECTION_DEFAULTS: Record<Protocol, Values> = {
  mqtt: { Url: "mqtt://localhost:1883", Username: "", ClientId: "" },
  modbus: { Host: "", Port: "502", UnitId: "1", TimeoutMs: "1000" },
  opcua: { Endpoint: "opc.tcp://", SecurityMode: "None", SecurityPolicy: "None", Auth: "anonymous", Username: "", Trust: "firstUse", Fingerprint: "" },
};
const ADDRESS_DEFAULTS: Record<Protocol, Values> = {
  mqtt: { Topic: "", JsonPath: "", TimestampPath: "", Qos: "0" },
  modbus: { Register: "holding", Address: "0", Type: "uint16", WordOrder: "big", ByteOrder: "big", Scale: "1", Offset: "0" },
  opcua: { NodeId: "" },
};

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === "string" && (PROTOCOLS as readonly string[]).includes(value);
}

export function newVariable(protocol: Protocol): Values {
  const row: Values = { VariableId: "", Name: "", Unit: "", RangeMin: "0", RangeMax: "100", Precision: "2", Direction: "I" };
  for (const [k, v] of Object.entries(ADDRESS_DEFAULTS[protocol])) row[`Address.${k}`] = v;
  return row;
}

export function newDraft(protocol: Protocol): Draft {
  const values: Values = { Name: "", Enabled: "on", PeriodMs: "1000" };
  for (const [k, v] of Object.entries(CONNECTION_DEFAULTS[protocol])) values[`Connection.${k}`] = v;
  return { protocol, values, variables: [] };
}

export function draftOf(source: DataSourceView): Draft {
  const values: Values = { Name: source.Name, Enabled: source.Enabled ? "on" : "", PeriodMs: String(source.PeriodMs) };
  const connection = source.Connection as unknown as Record<string, unknown>;
  for (const k of CONNECTION_FIELDS[source.Protocol]) values[`Connection.${k}`] = String(connection[k] ?? "");
  const variables = source.Variables.map((v) => {
    const row: Values = {};
    for (const k of VARIABLE_FIELDS) row[k] = String(v[k]);
    const address = v.Address as unknown as Record<string, unknown>;
    for (const k of ADDRESS_FIELDS[source.Protocol]) row[`Address.${k}`] = String(address[k] ?? "");
    return row;
  });
  return { protocol: source.Protocol, values, variables };
}

/** The form as posted (rows in index order, renumbered 0…n-1); passwords are read apart. */
export function draftFromForm(form: FormData, protocol: Protocol): Draft {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const values: Values = { Name: text("Name"), Enabled: form.get("Enabled") ? "on" : "", PeriodMs: text("PeriodMs") };
  for (const k of CONNECTION_FIELDS[protocol]) values[`Connection.${k}`] = text(`Connection.${k}`);
  const indices = new Set<number>();
  for (const key of form.keys()) {
    const m = /^Variables\.(\d{1,4})\./.exec(key);
    if (m) indices.add(Number(m[1]));
  }
  const fields = [...VARIABLE_FIELDS, ...ADDRESS_FIELDS[protocol].map((k) => `Address.${k}`)];
  const variables = [...indices]
    .sort((a, b) => a - b)
    .map((i) => Object.fromEntries(fields.map((f) => [f, text(`Variables.${i}.${f}`)])));
  return { protocol, values, variables };
}

export type Payload = Record<string, unknown> & { Variables: Record<string, unknown>[] };

/** Checks the draft as the logger would (decision 0010), with translated messages; null payload when refused. */
export function checkDraft(draft: Draft, password: { typed: string; clear: boolean }, id: number | null): { payload: Payload | null; errors: Errors } {
  const errors: Errors = {};
  const fail = (field: string, key: string, values?: Record<string, string | number>) => {
    (errors[field] ??= []).push({ key: `dataSources.errors.${key}`, values });
  };
  const v = draft.values;
  const p = draft.protocol;
  const str = (field: string, src: Values = v) => (src[field] ?? "").trim();
  const int = (field: string, min: number, max: number, src: Values = v, prefix = "") => {
    const raw = str(field, src);
    const n = Number(raw);
    if (raw === "" || !Number.isInteger(n) || n < min || n > max) fail(prefix + field, "intRange", { min, max });
    return n;
  };
  const num = (field: string, src: Values, prefix: string) => {
    const raw = str(field, src).replace(",", ".");
    const n = Number(raw);
    if (raw === "" || !Number.isFinite(n)) fail(prefix + field, "number");
    return n;
  };
  const choice = <T extends string>(field: string, options: readonly T[], src: Values = v, prefix = "") => {
    const value = str(field, src) as T;
    if (!options.includes(value)) fail(prefix + field, "choose");
    return value;
  };
  const name = (field: string, src: Values, prefix = "") => {
    const value = str(field, src).normalize("NFC");
    if (value === "" || value.length > 64) fail(prefix + field, "name");
    else if (hasInvisibleCharacters(value)) (errors[prefix + field] ??= []).push({ key: INVISIBLE_CHARACTERS });
    return value;
  };
  const maxLen = (field: string, max: number, src: Values = v, prefix = "") => {
    const value = str(field, src);
    if (value.length > max) fail(prefix + field, "tooLong", { max });
    return value;
  };

  const source: Payload = {
    ID: id ?? -1,
    Name: name("Name", v),
    Protocol: p,
    Enabled: v.Enabled === "on",
    PeriodMs: int("PeriodMs", 10, 3_600_000),
    Connection: {},
    Variables: [],
  };
  const c = (k: string) => `Connection.${k}`;
  let connection: Record<string, unknown>;
  if (p === "mqtt") {
    const url = str(c("Url"));
    if (!/^(mqtts?|wss?):\/\/[^\s/?#]+/i.test(url) || !URL.canParse(url)) fail(c("Url"), "mqttUrl");
    connection = { Url: url, Username: maxLen(c("Username"), 256), ClientId: maxLen(c("ClientId"), 128) };
  } else if (p === "modbus") {
    const host = str(c("Host"));
    if (host === "" || host.length > 253) fail(c("Host"), "host");
    connection = { Host: host, Port: int(c("Port"), 1, 65535), UnitId: int(c("UnitId"), 0, 255), TimeoutMs: int(c("TimeoutMs"), 100, 30_000) };
  } else {
    const endpoint = str(c("Endpoint"));
    if (!/^opc\.tcp:\/\/[^\s/?#]+/i.test(endpoint)) fail(c("Endpoint"), "endpoint");
    const mode = choice(c("SecurityMode"), OPCUA_SECURITY_MODES);
    const policy = choice(c("SecurityPolicy"), OPCUA_SECURITY_POLICIES);
    if ((mode === "None") !== (policy === "None")) fail(c("SecurityPolicy"), "securityPair");
    const auth = choice(c("Auth"), OPCUA_AUTH);
    const username = maxLen(c("Username"), 256);
    if (auth === "user" && username === "") fail(c("Username"), "username");
    const trust = choice(c("Trust"), OPCUA_TRUST);
    const fingerprint = normalFingerprint(str(c("Fingerprint")));
    if (trust === "fingerprint" && !FINGERPRINT.test(fingerprint)) fail(c("Fingerprint"), "fingerprint");
    else if (fingerprint !== "" && !FINGERPRINT.test(fingerprint)) fail(c("Fingerprint"), "fingerprint");
    if (trust === "fingerprint" && mode === "None") fail(c("Trust"), "trustNeedsSecurity");
    connection = { Endpoint: endpoint, SecurityMode: mode, SecurityPolicy: policy, Auth: auth, Username: username, Trust: trust, Fingerprint: fingerprint };
  }
  if (hasPasswordField(p)) {
    if (password.typed.length > 256) fail(c("Password"), "tooLong", { max: 256 });
    // Write-only (decision 0010): absent keeps the stored one, "" removes it.
    if (password.clear) connection.Password = "";
    else if (password.typed !== "") connection.Password = password.typed;
  }
  source.Connection = connection;

  const seen = new Map<string, number>();
  draft.variables.forEach((row, i) => {
    const at = `Variables.${i}.`;
    const a = (k: string) => `Address.${k}`;
    const varName = name("Name", row, at);
    const key = varName.toLowerCase();
    if (varName && seen.has(key)) fail(`${at}Name`, "duplicateName", { row: seen.get(key)! + 1 });
    else seen.set(key, i);
    const rangeMin = num("RangeMin", row, at);
    const rangeMax = num("RangeMax", row, at);
    if (Number.isFinite(rangeMin) && Number.isFinite(rangeMax) && !(rangeMax > rangeMin)) fail(`${at}RangeMax`, "range");
    const direction = choice("Direction", DIRECTIONS, row, at);
    const output = direction !== "I";
    let address: Record<string, unknown>;
    if (p === "mqtt") {
      const topic = str(a("Topic"), row);
      const problem = topicProblem(topic, !output);
      if (problem) fail(`${at}${a("Topic")}`, problem);
      for (const k of ["JsonPath", "TimestampPath"]) if (!isPath(str(a(k), row))) fail(`${at}${a(k)}`, "jsonPath");
      address = { Topic: topic, JsonPath: str(a("JsonPath"), row), TimestampPath: str(a("TimestampPath"), row), Qos: int(a("Qos"), 0, 2, row, at) };
    } else if (p === "modbus") {
      const register = choice(a("Register"), MODBUS_REGISTERS, row, at);
      if (output && (register === "input" || register === "discrete")) fail(`${at}${a("Register")}`, "readOnlyRegister");
      const scale = num(a("Scale"), row, at);
      if (scale === 0) fail(`${at}${a("Scale")}`, "scale");
      address = {
        Register: register,
        Address: int(a("Address"), 0, 65535, row, at),
        Type: choice(a("Type"), MODBUS_TYPES, row, at),
        WordOrder: choice(a("WordOrder"), BYTE_ORDERS, row, at),
        ByteOrder: choice(a("ByteOrder"), BYTE_ORDERS, row, at),
        Scale: scale,
        Offset: num(a("Offset"), row, at),
      };
    } else {
      const nodeId = str(a("NodeId"), row);
      if (nodeId === "" || nodeId.length > 512) fail(`${at}${a("NodeId")}`, "nodeId");
      address = { NodeId: nodeId };
    }
    source.Variables.push({
      VariableId: str("VariableId", row),
      Name: varName,
      Unit: maxLen("Unit", 16, row, at),
      RangeMin: rangeMin,
      RangeMax: rangeMax,
      Precision: int("Precision", 0, 9, row, at),
      Direction: direction,
      Address: address,
    });
  });
  if (draft.variables.length > 1000) (errors.form ??= []).push({ key: "dataSources.errors.tooManyVariables" });
  return { payload: Object.keys(errors).length ? null : source, errors };
}

const PATH = /^(?:[A-Za-z_$][\w$-]*|\[\d+\])(?:\.[A-Za-z_$][\w$-]*|\[\d+\])*$/;
const isPath = (p: string) => p === "" || (p.length <= 256 && PATH.test(p));

/** The text key of what is wrong with an MQTT topic, or null (wildcards only for inputs). */
function topicProblem(topic: string, wildcards: boolean): string | null {
  if (topic === "") return "topicEmpty";
  if (topic.length > 512) return "topicLong";
  for (const [i, level, all] of topic.split("/").map((l, i, all) => [i, l, all] as const)) {
    if (!level.includes("+") && !level.includes("#")) continue;
    if (!wildcards) return "topicOutputWildcard";
    if (level.length > 1 || (level === "#" && i !== all.length - 1)) return "topicWildcard";
  }
  return null;
}

/**
 * The logger's refusal on its fields: "Invalid parameter Source.Variables.2.Address.Topic: …"
 * (several joined by "; ") goes next to that field; a text about a source's Name next to Name;
 * anything else above the form.
 */
export function loggerErrors(description: string, draft: Draft): Errors {
  const errors: Errors = {};
  const known = new Set([...Object.keys(draft.values), "Connection.Password", ...draft.variables.flatMap((row, i) => Object.keys(row).map((k) => `Variables.${i}.${k}`))]);
  const parts = description.split(/;\s*(?=Invalid parameter )/);
  for (const part of parts) {
    const m = /^Invalid parameter Source\.([\w.]+): ([\s\S]*)$/.exec(part.trim());
    let field = "form";
    let text = part.trim();
    if (m) {
      text = m[2]!;
      const path = m[1]!;
      if (known.has(path)) field = path;
      else if (/^Variables\.\d+$/.test(path) && known.has(`${path}.Name`)) field = `${path}.Name`;
    } else if (/^Name\b/.test(text)) field = "Name";
    (errors[field] ??= []).push({ text });
  }
  return errors;
}

/** The logger's own words in `errors` put through `translate` (its refusal's code in the user's language). */
export function translated(errors: Errors, translate: (text: string) => string): Errors {
  return Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list.map((m) => ("text" in m ? { text: translate(m.text) } : m))]));
}

/** A browsed OPC UA node as a new row of the form: its display name (unique among the rows), unit and range where the node states them. */
export function rowOfNode(draft: Draft, node: { NodeId: string; DisplayName?: string; Unit?: string; RangeMin?: number; RangeMax?: number; Writable?: boolean }): Values {
  const taken = new Set(draft.variables.map((v) => (v.Name ?? "").trim().toLowerCase()));
  const base = (node.DisplayName?.trim() || node.NodeId).replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 64) || "Variable";
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 64 - String(n).length - 1)} ${n}`;
  const ranged = Number.isFinite(node.RangeMin) && Number.isFinite(node.RangeMax) && node.RangeMax! > node.RangeMin!;
  return {
    ...newVariable("opcua"),
    Name: name,
    Unit: (node.Unit ?? "").trim().slice(0, 16),
    RangeMin: ranged ? String(node.RangeMin) : "0",
    RangeMax: ranged ? String(node.RangeMax) : "100",
    Direction: node.Writable ? "IO" : "I",
    "Address.NodeId": node.NodeId,
  };
}

const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;
/** "3a5f…", "3A 5F …" or "3A:5F:…" → "3A:5F:…", as the logger stores it. */
function normalFingerprint(f: string): string {
  const hex = f.replace(/[\s:]/g, "").toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? hex.match(/../g)!.join(":") : f;
}
