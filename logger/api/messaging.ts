import { z } from "zod";
import { postMessage, queryMessages } from "../store/messages.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";

const API = "GI.system/MessagingAPI";

// "" means an open end; anything else must be a date, stored form is ISO UTC with ms.
const bound = z
  .string()
  .optional()
  .refine((s) => !s || !Number.isNaN(Date.parse(s)), { message: "Use an ISO 8601 date-time or an empty string" })
  .transform((s) => (s ? new Date(s).toISOString() : undefined));

const anyText = z.string().max(256).optional();

export const messagingMethods: Registry = {
  [`${API}.GetMessages`]: method({
    params: z.object({
      Filter: z.object({ Sender: anyText, Topic: anyText, Type: anyText, Text: anyText }).default({}),
      From: bound,
      To: bound,
      Limit: z.number().int().min(0).max(5000).default(100),
      Offset: z.number().int().min(0).default(0),
    }),
    permission: null,
    handler: (p, ctx) => queryMessages(ctx.db, { ...p.Filter, From: p.From, To: p.To, Limit: p.Limit, Offset: p.Offset }),
  }),

  [`${API}.PostMessage`]: method({
    params: z.object({
      Sender: z.string().min(1).max(256),
      Topic: z.string().max(256).default(""),
      Type: z.enum(["Info", "Warning", "Error", "Success"]),
      Text: z.string().max(10_000),
      Args: z.array(z.string().max(1000)).max(100).default([]),
    }),
    permission: "ManageGlobalSettings",
    handler: async (p, ctx) => ({ ID: await postMessage(ctx.db, p) }),
  }),
};
