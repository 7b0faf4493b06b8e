import { z } from "zod";
import { MAX_CAPTURE_BYTES } from "../can/capture.ts";
import { MAX_DBC_BYTES } from "../can/dbc.ts";
import { CanFileError, hexBytes, hexId } from "../can/frame.ts";
import { SCAN_WINDOW_MS } from "../can/scan.ts";
import { invalidParam, notFound } from "../http/errors.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";

// CANAPI: the CAN scanner (scan of the simulated bus or of an uploaded capture), DBC decoding,
// and decoded signals as logger variables. The spec gives the CAN scanner no permission: any
// signed-in caller may use it.

const FileName = z.string().trim().min(1).max(255);

function sourceOf(ctx: CallContext) {
  const s = ctx.can.source;
  if (s.kind === "capture") return { Kind: s.kind, FileName: s.fileName, Format: s.format, Frames: s.frames.length, LoadedAt: new Date(s.loadedAt).toISOString() };
  if (s.kind === "simulation") return { Kind: s.kind, FileName: null, Format: null, Frames: null, LoadedAt: new Date(s.since).toISOString() };
  return { Kind: s.kind, FileName: null, Format: null, Frames: null, LoadedAt: null };
}

function databaseOf(ctx: CallContext) {
  const d = ctx.can.database;
  return d ? { FileName: d.fileName, Messages: d.db.messages.length, Signals: d.db.messages.reduce((n, m) => n + m.signals.length, 0), LoadedAt: new Date(d.loadedAt).toISOString() } : null;
}

/** A malformed file is the caller's mistake: 400 with "Line N: why" as the description. */
function fileProblem<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof CanFileError) throw invalidParam(err.message);
    throw err;
  }
}

export const canMethods: Registry = {
  "CANAPI.GetScan": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => {
      const { rows, at } = ctx.can.scan();
      return {
        Source: sourceOf(ctx),
        WindowMs: SCAN_WINDOW_MS,
        At: at,
        Scan: rows.map((r) => ({
          ID: r.id,
          IDHex: hexId(r.id, r.ext),
          Extended: r.ext,
          DLC: r.dlc,
          Count: r.count,
          RateHz: r.rateHz,
          Payload: hexBytes(r.last),
          Changed: r.changed,
          LastTime: r.lastT,
        })),
      };
    },
  }),

  "CANAPI.UploadCapture": method({
    params: z.object({ FileName, Content: z.string().max(MAX_CAPTURE_BYTES, `Captures are limited to ${MAX_CAPTURE_BYTES / 1024 / 1024} MB`) }),
    permission: null,
    maxBody: MAX_CAPTURE_BYTES * 2 + 4096,
    handler: async (p, ctx) => {
      fileProblem(() => ctx.can.loadCapture(p.FileName, p.Content));
      await ctx.audit(`Loaded CAN capture ${p.FileName}`);
      return { Source: sourceOf(ctx) };
    },
  }),

  "CANAPI.UseSimulation": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => {
      ctx.can.useSimulation();
      return { Source: sourceOf(ctx) };
    },
  }),

  "CANAPI.UploadDatabase": method({
    params: z.object({ FileName, Content: z.string().max(MAX_DBC_BYTES, `DBC files are limited to ${MAX_DBC_BYTES / 1024 / 1024} MB`) }),
    permission: null,
    maxBody: MAX_DBC_BYTES * 2 + 4096,
    handler: async (p, ctx) => {
      fileProblem(() => ctx.can.loadDatabase(p.FileName, p.Content));
      await ctx.audit(`Loaded CAN database ${p.FileName}`);
      return { Database: databaseOf(ctx) };
    },
  }),

  "CANAPI.RemoveDatabase": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => {
      ctx.can.removeDatabase();
      await ctx.audit("Removed the CAN database");
      return {};
    },
  }),

  "CANAPI.GetSignals": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => ({
      Database: databaseOf(ctx),
      Signals: ctx.can.decode().map((d) => ({
        Message: d.message.name,
        MessageID: d.message.id,
        MessageIDHex: hexId(d.message.id, d.message.ext),
        Extended: d.message.ext,
        Name: d.signal.name,
        StartBit: d.signal.startBit,
        Length: d.signal.length,
        ByteOrder: d.signal.littleEndian ? "little" : "big",
        Signed: d.signal.signed,
        Factor: d.signal.factor,
        Offset: d.signal.offset,
        Min: d.signal.min,
        Max: d.signal.max,
        Unit: d.signal.unit,
        Value: d.value,
        VariableId: d.variableId,
      })),
    }),
  }),

  "CANAPI.AddVariable": method({
    params: z.object({ Message: z.string().min(1).max(128), Signal: z.string().min(1).max(128) }),
    permission: null,
    handler: async (p, ctx) => {
      if (!ctx.can.database) throw notFound("No CAN database is loaded");
      const added = ctx.can.addVariable(p.Message, p.Signal);
      if (!added) throw notFound(`Signal ${p.Message}.${p.Signal} is not in the CAN database`);
      if (added.created) await ctx.audit(`Added CAN signal ${p.Message}.${p.Signal} as a variable`);
      return { Variable: { Id: added.variable.Id, Name: added.variable.Name, Unit: added.variable.Unit }, Created: added.created };
    },
  }),
};
