// UDBF ("Universal Data Bin File", version 1.07): the logger family's binary data file, as
// /work/shared/design/UDBF.md and docs/logger-api.md ("UDBF") describe it. The facts both the
// writer and the reader need: data type codes and sizes, the family's time base.

export const UDBF_VERSION = 107;
export const VENDOR = "UniversalDataBinFile - Gantner Instruments";

/** Data type codes of the format and their sizes in bytes. */
export const TYPE = {
  boolean: 1, i8: 2, u8: 3, i16: 4, u16: 5, i32: 6, u32: 7, f32: 8,
  bitset8: 9, bitset16: 10, bitset32: 11, f64: 12, i64: 13, u64: 14, bitset64: 15,
} as const;
export type TypeCode = (typeof TYPE)[keyof typeof TYPE];

export const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 4, 8: 4, 9: 1, 10: 2, 11: 4, 12: 8, 13: 8, 14: 8, 15: 8 };
export const TYPE_NAME: Record<number, string> = {
  1: "boolean", 2: "i8", 3: "u8", 4: "i16", 5: "u16", 6: "i32", 7: "u32", 8: "f32",
  9: "bitset8", 10: "bitset16", 11: "bitset32", 12: "f64", 13: "i64", 14: "u64", 15: "bitset64",
};

/** The data API's DataFormat of each type (LOGGER-API.md), and back. */
export const DATA_FORMAT: Record<number, string> = {
  1: "BOOL", 2: "SINT8", 3: "USINT8", 4: "SINT16", 5: "USINT16", 6: "SINT32", 7: "USINT32", 8: "FLOAT",
  9: "USINT8", 10: "USINT16", 11: "USINT32", 12: "DOUBLE", 13: "SINT64", 14: "USINT64", 15: "USINT64",
};
export const TYPE_OF_FORMAT: Record<string, TypeCode> = {
  BOOL: 1, SINT8: 2, USINT8: 3, SINT16: 4, USINT16: 5, SINT32: 6, USINT32: 7, FLOAT: 8, DOUBLE: 12, SINT64: 13, USINT64: 14,
};

/** Types whose every value a float32 holds exactly: the store keeps them as they are. */
export const EXACT_IN_F32 = new Set<number>([1, 2, 3, 4, 5, 8, 9, 10]);

/** Direction codes: 0 input, 1 output, 2 input/output, 3 empty. */
export const DIRECTION = { I: 0, O: 1, IO: 2 } as const;
export const DIRECTION_NAME: Record<number, "I" | "O" | "IO" | ""> = { 0: "I", 1: "O", 2: "IO", 3: "" };

/** Start time of the family's files: 2000-01-01 as an OLE date (days since 1899-12-30). */
export const FAMILY_START_DAYS = 36526;
/** 1970-01-01 as an OLE date. */
export const OLE_UNIX_DAYS = 25569;
/** 2000-01-01 00:00 UTC in epoch ms: the family's time stamps count nanoseconds from here. */
export const EPOCH_2000_MS = Date.UTC(2000, 0, 1);

/** Bytes of the separator of `*` before the data: at least 8, then to a multiple of 16. */
export function separatorLength(at: number): number {
  return 8 + ((16 - ((at + 8) % 16)) % 16);
}
