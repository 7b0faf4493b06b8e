import { z } from "zod";

// DataSourceAPI answers (docs/decisions/0010-data-sources.md), validated before the console uses
// them. Client-safe: the data-sources screen's form uses the protocol constants too.

export const PROTOCOLS = ["mqtt", "modbus", "opcua"] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export const DIRECTIONS = ["I", "O", "IO"] as const;
export const MQTT_QOS = [0, 1, 2] as const;
export const MODBUS_REGISTERS = ["holding", "input", "coil", "discrete"] as const;
export const MODBUS_TYPES = ["int16", "uint16", "int32", "uint32", "float32", "float64"] as const;
export const BYTE_ORDERS = ["big", "little"] as const;
export const OPCUA_SECURITY_MODES = ["None", "Sign", "SignAndEncrypt"] as const;
export const OPCUA_SECURITY_POLICIES = ["None", "Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss"] as const;
export const OPCUA_AUTH = ["anonymous", "user"] as const;
export const OPCUA_TRUST = ["firstUse", "fingerprint"] as const;
export const CONNECTION_STATES = ["connected", "connecting", "error", "disabled"] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

const mqttConnection = z.object({ Url: z.string(), Username: z.string(), ClientId: z.string(), HasPassword: z.boolean() });
const mqttAddress = z.object({ Topic: z.string(), JsonPath: z.string(), TimestampPath: z.string(), Qos: z.union([z.literal(0), z.literal(1), z.literal(2)]) });
const modbusConnection = z.object({ Host: z.string(), Port: z.number().int(), UnitId: z.number().int(), TimeoutMs: z.number().int() });
const modbusAddress = z.object({
  Register: z.enum(MODBUS_REGISTERS),
  Address: z.number().int(),
  Type: z.enum(MODBUS_TYPES),
  WordOrder: z.enum(BYTE_ORDERS),
  ByteOrder: z.enum(BYTE_ORDERS),
  Scale: z.number(),
  Offset: z.number(),
});
const opcuaConnection = z.object({
  Endpoint: z.string(),
  SecurityMode: z.enum(OPCUA_SECURITY_MODES),
  SecurityPolicy: z.enum(OPCUA_SECURITY_POLICIES),
  Auth: z.enum(OPCUA_AUTH),
  Username: z.string(),
  HasPassword: z.boolean(),
  // Defaults for a logger from before the choice existed (it trusted on first use).
  Trust: z.enum(OPCUA_TRUST).default("firstUse"),
  Fingerprint: z.string().default(""),
});
const opcuaAddress = z.object({ NodeId: z.string() });

function variable<A extends z.ZodType>(address: A) {
  return z.object({
    VariableId: z.string(),
    Name: z.string(),
    Unit: z.string(),
    RangeMin: z.number(),
    RangeMax: z.number(),
    Precision: z.number().int(),
    Direction: z.enum(DIRECTIONS),
    Address: address,
  });
}

const base = { ID: z.number().int(), Name: z.string(), Enabled: z.boolean(), PeriodMs: z.number().int(), DeviceId: z.string() };

/** A stored data source as the logger answers it: never a password, only whether one is set. */
export const dataSourceView = z.discriminatedUnion("Protocol", [
  z.object({ ...base, Protocol: z.literal("mqtt"), Connection: mqttConnection, Variables: z.array(variable(mqttAddress)) }),
  z.object({ ...base, Protocol: z.literal("modbus"), Connection: modbusConnection, Variables: z.array(variable(modbusAddress)) }),
  z.object({ ...base, Protocol: z.literal("opcua"), Connection: opcuaConnection, Variables: z.array(variable(opcuaAddress)) }),
]);
export type DataSourceView = z.infer<typeof dataSourceView>;
export type MqttSourceView = Extract<DataSourceView, { Protocol: "mqtt" }>;
export type ModbusSourceView = Extract<DataSourceView, { Protocol: "modbus" }>;
export type OpcuaSourceView = Extract<DataSourceView, { Protocol: "opcua" }>;

export const sourcesAnswer = z.object({ Sources: z.array(dataSourceView) });
export const sourceAnswer = z.object({ Source: dataSourceView });

export const sourceState = z.object({
  ID: z.number().int(),
  Name: z.string(),
  Protocol: z.enum(PROTOCOLS),
  DeviceId: z.string(),
  Enabled: z.boolean(),
  State: z.enum(CONNECTION_STATES),
  LastError: z.string(),
  /** LastError as a stable code and arguments, translated on the console (absent from older loggers). */
  Problem: z
    .object({ Code: z.string(), Args: z.record(z.string(), z.union([z.string(), z.number()])) })
    .nullable()
    .optional(),
  LastValueTime: z.number().nullable(),
  Values: z.number(),
  Errors: z.number(),
  Since: z.number(),
  ServerFingerprint: z.string().nullable().optional(),
});
export type SourceState = z.infer<typeof sourceState>;
export const sourceStatesAnswer = z.object({ States: z.array(sourceState) });

export const browseNode = z.object({
  NodeId: z.string(),
  DisplayName: z.string(),
  NodeClass: z.string(),
  HasChildren: z.boolean(),
  DataType: z.string().optional(),
  Unit: z.string().optional(),
  RangeMin: z.number().optional(),
  RangeMax: z.number().optional(),
  Writable: z.boolean().optional(),
});
export type BrowseNode = z.infer<typeof browseNode>;
export const browseAnswer = z.object({ Nodes: z.array(browseNode), ServerFingerprint: z.string().nullable().optional() });
