import { z } from "zod";
import { nameField } from "../api/schemas.ts";
import type { Problem } from "./problems.ts";
import { nameUuid } from "../uuid.ts";

// The stored configuration of a data source (docs/decisions/0010-data-sources.md) and the
// shapes the DataSourceAPI answers with. The RPC validates `Set` with `DataSourceInput`; the
// drivers receive a `DataSource` (with the password, which never leaves the logger).

export const PROTOCOLS = ["mqtt", "modbus", "opcua"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The model's device Type of each protocol. */
export const DEVICE_TYPES: Record<Protocol, string> = { mqtt: "MQTT", modbus: "Modbus TCP", opcua: "OPC UA" };

const password = z.string().max(256, "Password must be at most 256 characters");

// ---- paths into a JSON payload: "" | "data.temp" | "values[2]" | "a.b[0][1].c" ----

const PATH = /^(?:[A-Za-z_$][\w$-]*|\[\d+\])(?:\.[A-Za-z_$][\w$-]*|\[\d+\])*$/;
const jsonPath = (what: string) =>
  z
    .string()
    .max(256, `${what} must be at most 256 characters`)
    .refine((p) => p === "" || PATH.test(p), { message: `${what} must be empty or a dotted path such as data.temp or values[2]` });

/** The steps of a valid path ("" → []): property names and array indices. */
export function pathSteps(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) steps.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return steps;
}

// ---- MQTT ----

/** A topic filter: + and # stand for whole levels, # only as the last one. */
export function topicProblem(topic: string, wildcards: boolean): string | null {
  if (topic === "") return "Topic must not be empty";
  if (topic.includes("\0")) return "Topic must not contain NUL";
  const levels = topic.split("/");
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    if (!l.includes("+") && !l.includes("#")) continue;
    if (!wildcards) return "Topic of an output must not contain the wildcards + or #";
    if (l.length > 1) return "Topic wildcards + and # must stand alone between slashes";
    if (l === "#" && i !== levels.length - 1) return "Topic wildcard # must be the last level";
  }
  return null;
}

export const MqttConnection = z.object({
  Url: z
    .string()
    .trim()
    .max(512)
    .refine((u) => /^(mqtts?|wss?):\/\/[^\s/?#]+/i.test(u) && URL.canParse(u), { message: "Url must start with mqtt://, mqtts://, ws:// or wss:// and name a host" }),
  Username: z.string().max(256).default(""),
  Password: password.optional(),
  ClientId: z.string().max(128, "ClientId must be at most 128 characters").default(""),
});

export const MqttAddress = z.object({
  Topic: z.string().max(512, "Topic must be at most 512 characters"),
  JsonPath: jsonPath("JsonPath").default(""),
  TimestampPath: jsonPath("TimestampPath").default(""),
  Qos: z.union([z.literal(0), z.literal(1), z.literal(2)], { message: "Qos must be 0, 1 or 2" }).default(0),
});

// ---- Modbus TCP ----

export const MODBUS_REGISTERS = ["holding", "input", "coil", "discrete"] as const;
export const MODBUS_TYPES = ["int16", "uint16", "int32", "uint32", "float32", "float64"] as const;

export const ModbusConnection = z.object({
  Host: z.string().trim().min(1, "Host must not be empty").max(253),
  Port: z.number().int().min(1).max(65535).default(502),
  UnitId: z.number().int().min(0).max(255).default(1),
  TimeoutMs: z.number().int().min(100).max(30_000).default(1000),
});

export const ModbusAddress = z.object({
  Register: z.enum(MODBUS_REGISTERS),
  Address: z.number().int().min(0).max(65535),
  Type: z.enum(MODBUS_TYPES).default("uint16"),
  WordOrder: z.enum(["big", "little"]).default("big"),
  ByteOrder: z.enum(["big", "little"]).default("big"),
  Scale: z.number().refine((n) => Number.isFinite(n) && n !== 0, { message: "Scale must be a finite number other than 0" }).default(1),
  Offset: z.number().refine(Number.isFinite, { message: "Offset must be a finite number" }).default(0),
});

// ---- OPC UA ----

export const OPCUA_SECURITY_MODES = ["None", "Sign", "SignAndEncrypt"] as const;
export const OPCUA_SECURITY_POLICIES = ["None", "Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss"] as const;

export const OPCUA_TRUST = ["firstUse", "fingerprint"] as const;
const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;
/** "3a5f…", "3A 5F …" or "3A:5F:…" → "3A:5F:…" (anything else is left for the check to refuse). */
export function normalFingerprint(f: string): string {
  const hex = f.replace(/[\s:]/g, "").toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? hex.match(/../g)!.join(":") : f.trim();
}

export const OpcuaConnection = z
  .object({
    Endpoint: z
      .string()
      .trim()
      .max(512)
      .refine((u) => /^opc\.tcp:\/\/[^\s/?#]+/i.test(u), { message: "Endpoint must start with opc.tcp:// and name a host" }),
    SecurityMode: z.enum(OPCUA_SECURITY_MODES).default("None"),
    SecurityPolicy: z.enum(OPCUA_SECURITY_POLICIES).default("None"),
    Auth: z.enum(["anonymous", "user"]).default("anonymous"),
    Username: z.string().max(256).default(""),
    Password: password.optional(),
    /**
     * The server's certificate (decision 0010, "Server certificates"): "firstUse" accepts the one
     * the server presents (and refuses a different one later in the same run); "fingerprint"
     * requires the certificate whose SHA-256 fingerprint is Fingerprint, as the operator checked it.
     */
    Trust: z.enum(OPCUA_TRUST).default("firstUse"),
    Fingerprint: z
      .string()
      .max(200)
      .default("")
      .transform(normalFingerprint)
      .refine((f) => f === "" || FINGERPRINT.test(f), { message: "Fingerprint must be a SHA-256 fingerprint: 32 bytes in hex, e.g. 3A:5F:…" }),
  })
  .superRefine((c, ctx) => {
    if (c.Trust === "fingerprint" && c.Fingerprint === "") {
      ctx.addIssue({ code: "custom", path: ["Fingerprint"], message: "Fingerprint must not be empty when Trust is fingerprint" });
    }
    if (c.Trust === "fingerprint" && c.SecurityMode === "None") {
      ctx.addIssue({ code: "custom", path: ["Trust"], message: "Trust fingerprint needs SecurityMode Sign or SignAndEncrypt (without security no certificate is used)" });
    }
    if ((c.SecurityMode === "None") !== (c.SecurityPolicy === "None")) {
      ctx.addIssue({ code: "custom", path: ["SecurityPolicy"], message: "SecurityPolicy must be None exactly when SecurityMode is None" });
    }
    if (c.Auth === "user" && c.Username.trim() === "") {
      ctx.addIssue({ code: "custom", path: ["Username"], message: "Username must not be empty when Auth is user" });
    }
  });

export const OpcuaAddress = z.object({
  NodeId: z.string().trim().min(1, "NodeId must not be empty").max(512),
});

// ---- variables and sources ----

const finite = (what: string) => z.number().refine(Number.isFinite, { message: `${what} must be a finite number` });

function variableSchema<A extends z.ZodType>(address: A) {
  return z.object({
    /** "ds<ID>v<n>", assigned by the logger; "" in Set = a new variable. */
    VariableId: z.string().max(64).default(""),
    Name: nameField(64),
    Unit: z.string().trim().max(16, "Unit must be at most 16 characters").default(""),
    RangeMin: finite("RangeMin").default(0),
    RangeMax: finite("RangeMax").default(100),
    Precision: z.number().int().min(0).max(9).default(2),
    Direction: z.enum(["I", "O", "IO"]).default("I"),
    Address: address,
  });
}

const base = {
  ID: z.number().int().default(-1),
  Name: nameField(64),
  Enabled: z.boolean().default(true),
  PeriodMs: z.number().int().min(10, "PeriodMs must be at least 10").max(3_600_000, "PeriodMs must be at most 3600000"),
};

const MqttSource = z.object({
  ...base,
  Protocol: z.literal("mqtt"),
  Connection: MqttConnection,
  Variables: z.array(variableSchema(MqttAddress)).max(1000, "At most 1000 variables"),
});
const ModbusSource = z.object({
  ...base,
  Protocol: z.literal("modbus"),
  Connection: ModbusConnection,
  Variables: z.array(variableSchema(ModbusAddress)).max(1000, "At most 1000 variables"),
});
const OpcuaSource = z.object({
  ...base,
  Protocol: z.literal("opcua"),
  Connection: OpcuaConnection,
  Variables: z.array(variableSchema(OpcuaAddress)).max(1000, "At most 1000 variables"),
});

/** What `DataSourceAPI.Set` accepts (and what is stored, less the password). */
export const DataSourceInput = z
  .discriminatedUnion("Protocol", [MqttSource, ModbusSource, OpcuaSource], { message: "Protocol must be mqtt, modbus or opcua" })
  .superRefine((s, ctx) => {
    const names = new Map<string, number>();
    s.Variables.forEach((v, i) => {
      const at = (field: string | string[]) => ["Variables", i, ...(Array.isArray(field) ? field : [field])];
      if (!(v.RangeMax > v.RangeMin)) ctx.addIssue({ code: "custom", path: at("RangeMax"), message: "RangeMax must be greater than RangeMin" });
      const key = v.Name.toLowerCase();
      if (names.has(key)) ctx.addIssue({ code: "custom", path: at("Name"), message: `Name ${v.Name} is already used by variable ${names.get(key)! + 1}` });
      else names.set(key, i);
      const output = v.Direction !== "I";
      if (s.Protocol === "mqtt") {
        const a = v.Address as MqttAddress;
        const problem = topicProblem(a.Topic, !output);
        if (problem) ctx.addIssue({ code: "custom", path: at(["Address", "Topic"]), message: problem });
      } else if (s.Protocol === "modbus") {
        const a = v.Address as ModbusAddress;
        if (output && (a.Register === "input" || a.Register === "discrete")) {
          ctx.addIssue({ code: "custom", path: at(["Address", "Register"]), message: `Register ${a.Register} is read-only: an output needs holding or coil` });
        }
        const words = a.Register === "coil" || a.Register === "discrete" ? 1 : MODBUS_WORDS[a.Type];
        if (a.Address + words - 1 > 65535) ctx.addIssue({ code: "custom", path: at(["Address", "Address"]), message: `Address ${a.Address} with ${a.Type} runs past register 65535` });
      }
    });
  });

/** Registers (16-bit words) a Modbus type occupies. */
export const MODBUS_WORDS: Record<(typeof MODBUS_TYPES)[number], number> = { int16: 1, uint16: 1, int32: 2, uint32: 2, float32: 2, float64: 4 };

export type MqttConnection = z.output<typeof MqttConnection>;
export type MqttAddress = z.output<typeof MqttAddress>;
export type ModbusConnection = z.output<typeof ModbusConnection>;
export type ModbusAddress = z.output<typeof ModbusAddress>;
// Trust and Fingerprint optional in the type: a connection made in code (tests, benchmarks) trusts on first use.
export type OpcuaConnection = Omit<z.output<typeof OpcuaConnection>, "Trust" | "Fingerprint"> & Partial<Pick<z.output<typeof OpcuaConnection>, "Trust" | "Fingerprint">>;
export type OpcuaAddress = z.output<typeof OpcuaAddress>;

export type SourceVariable<A = MqttAddress | ModbusAddress | OpcuaAddress> = {
  VariableId: string;
  Name: string;
  Unit: string;
  RangeMin: number;
  RangeMax: number;
  Precision: number;
  Direction: "I" | "O" | "IO";
  Address: A;
};

type Base = { ID: number; Name: string; Enabled: boolean; PeriodMs: number };
export type MqttDataSource = Base & { Protocol: "mqtt"; Connection: MqttConnection; Variables: SourceVariable<MqttAddress>[] };
export type ModbusDataSource = Base & { Protocol: "modbus"; Connection: ModbusConnection; Variables: SourceVariable<ModbusAddress>[] };
export type OpcuaDataSource = Base & { Protocol: "opcua"; Connection: OpcuaConnection; Variables: SourceVariable<OpcuaAddress>[] };
/** A data source as the logger holds it: ids assigned, the password (if any) in Connection. */
export type DataSource = MqttDataSource | ModbusDataSource | OpcuaDataSource;

// ---- what the RPCs answer ----

/**
 * The DataSource as answered: `Connection.Password` replaced by `Connection.HasPassword` (MQTT
 * and OPC UA), plus the model's device id.
 */
export type DataSourceView = (
  | (Omit<MqttDataSource, "Connection"> & { Connection: Omit<MqttConnection, "Password"> & { HasPassword: boolean } })
  | ModbusDataSource
  | (Omit<OpcuaDataSource, "Connection"> & { Connection: Omit<OpcuaConnection, "Password"> & { HasPassword: boolean } })
) & { DeviceId: string };

export type ConnectionState = "connected" | "connecting" | "error" | "disabled";

export type SourceState = {
  ID: number;
  Name: string;
  Protocol: Protocol;
  DeviceId: string;
  Enabled: boolean;
  State: ConnectionState;
  LastError: string;
  /** LastError as a stable code with its arguments (logger/sources/problems.ts); null when not in error. */
  Problem: Problem | null;
  /** Epoch ms of the last value received, null before the first. */
  LastValueTime: number | null;
  Values: number;
  Errors: number;
  /** Epoch ms of the last state change. */
  Since: number;
  /** OPC UA with security: SHA-256 fingerprint of the certificate the server presented (null: none seen). */
  ServerFingerprint: string | null;
};

export type BrowseNode = {
  NodeId: string;
  DisplayName: string;
  NodeClass: "Object" | "Variable" | "Method" | "ObjectType" | "VariableType" | "ReferenceType" | "DataType" | "View" | "Unspecified";
  HasChildren: boolean;
  DataType?: string;
  Unit?: string;
  RangeMin?: number;
  RangeMax?: number;
  Writable?: boolean;
};

// ---- model ids (decision 0010) ----

export const deviceIdOf = (id: number) => `ds${id}`;
export const sourceIdOf = (id: number) => `ds${id}`;
export const moduleIdOf = (id: number) => `ds${id}m`;
/**
 * A data source's n-th variable: a UUID, as the data contract has every online variable's Id
 * (clients parse it as one), stable for the source's id and the variable's never-reused number.
 */
export const variableIdOf = (id: number, n: number) => nameUuid(`loggia-data-source:${id}:variable:${n}`);

/** The view of a stored source: the password replaced by whether there is one. */
export function viewOf(s: DataSource): DataSourceView {
  if (s.Protocol === "modbus") return { ...s, DeviceId: deviceIdOf(s.ID) };
  const { Password, ...rest } = s.Connection;
  return { ...s, Connection: { ...rest, HasPassword: (Password ?? "") !== "" }, DeviceId: deviceIdOf(s.ID) } as DataSourceView;
}
