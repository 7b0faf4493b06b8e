import { z } from "zod";

// Limits of the CAN scanner's uploads (the logger enforces the same ones).
export const CAPTURE_LIMIT = 8 * 1024 * 1024;
export const DBC_LIMIT = 2 * 1024 * 1024;

export const addVariableForm = z.object({ message: z.string().min(1).max(128), signal: z.string().min(1).max(128) });
