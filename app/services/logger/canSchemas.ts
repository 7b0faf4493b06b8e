import { z } from "zod";

// CANAPI answers (docs/logger-api.md, "CAN scanner"), validated before the console uses them.

export const canSource = z.object({
  Kind: z.enum(["simulation", "capture", "none"]),
  FileName: z.string().nullable(),
  Format: z.string().nullable(),
  Frames: z.number().int().nullable(),
  LoadedAt: z.string().nullable(),
});
export type CanSource = z.infer<typeof canSource>;

export const canScanAnswer = z.object({
  Source: canSource,
  WindowMs: z.number(),
  At: z.number(),
  Scan: z.array(
    z.object({
      ID: z.number().int(),
      IDHex: z.string(),
      Extended: z.boolean(),
      DLC: z.number().int().min(0).max(64),
      Count: z.number().int().min(0),
      RateHz: z.number().nullable(),
      Payload: z.string(),
      Changed: z.array(z.boolean()),
      LastTime: z.number(),
    }),
  ),
});
export type CanScanRow = z.infer<typeof canScanAnswer>["Scan"][number];

export const canDatabase = z.object({ FileName: z.string(), Messages: z.number().int(), Signals: z.number().int(), LoadedAt: z.string() });

export const canSignalsAnswer = z.object({
  Database: canDatabase.nullable(),
  Signals: z.array(
    z.object({
      Message: z.string(),
      MessageID: z.number().int(),
      MessageIDHex: z.string(),
      Extended: z.boolean(),
      Name: z.string(),
      StartBit: z.number().int(),
      Length: z.number().int(),
      ByteOrder: z.enum(["little", "big"]),
      Signed: z.boolean(),
      Factor: z.number(),
      Offset: z.number(),
      Min: z.number(),
      Max: z.number(),
      Unit: z.string(),
      Value: z.number().nullable(),
      VariableId: z.string().nullable(),
    }),
  ),
});
export type CanSignal = z.infer<typeof canSignalsAnswer>["Signals"][number];

export const canSourceAnswer = z.object({ Source: canSource });
export const canDatabaseAnswer = z.object({ Database: canDatabase.nullable() });
export const canVariableAnswer = z.object({ Variable: z.object({ Id: z.string(), Name: z.string(), Unit: z.string() }), Created: z.boolean() });
