import { wallParts } from "~/ui/dashboard/timeRange";
import { dateTimeFormatFor, separatorsFor, type ExportChoices } from "~/schemas/export";
import type { MeasurementRow } from "./history.server";
import type { Variable } from "./logger/schemas";
import { selector } from "./variables.server";

/**
 * The logger's /history/data body for an export (CSV streamed in the user's zone): the choices
 * expressed as the contract's CSVSettings; comment lines go in HeaderText, the time column is
 * headed in the user's language. Aggregate and BOM are Loggia's.
 */
export function exportBody(c: ExportChoices, vars: Variable[], range: { from: number; to: number }, zone: string, language: string, comments: string[], timeHeader: string) {
  if (c.format === "udbf") {
    // The same selection as a UDBF file: raw samples or the same resampling and aggregate.
    return {
      Start: Math.round(range.from),
      End: Math.round(range.to),
      Variables: vars.map(selector),
      ...(c.mode === "resampled" ? { Interval: Math.round(c.interval * 1000), Aggregate: c.aggregate } : {}),
      Format: "udbf",
    };
  }
  return {
    Start: Math.round(range.from),
    End: Math.round(range.to),
    Variables: vars.map(selector),
    ...(c.mode === "resampled" ? { Interval: Math.round(c.interval * 1000) } : {}),
    Format: "csv",
    TimeZone: zone,
    CSVSettings: {
      ...separatorsFor(c.sep, language),
      ...(comments.length ? { HeaderText: comments.map((line) => `# ${line.replace(/[\r\n]+/g, " ")}`).join("\n") } : {}),
      AddColumnHeader: true,
      DateTimeHeader: timeHeader,
      DateTimeFormat: dateTimeFormatFor(c.time, zone),
      Aggregate: c.aggregate,
      BOM: c.bom === "on",
    },
  };
}

/** Header comments describing a measurement and its metadata. */
export function measurementComments(m: MeasurementRow, zone: string): string[] {
  return [`Measurement: ${m.Name}`, `Start: ${new Date(m.start).toISOString()}`, `End: ${m.end === null ? "" : new Date(m.end).toISOString()}`, `Time zone: ${zone}`, ...m.MetaData.map((e) => `${e.Key}: ${e.Value}`)];
}

/** The logger takes at most this many comment lines (CSVSettings.Comments). */
export const MAX_COMMENTS = 200;

/**
 * The comment lines of an export "with metadata" (written by the logger as `# <line>` before the
 * header row; see docs/logger-api.md and README, "CSV metadata lines"):
 *   # Measurement: <name> / Start / End / Time zone / <Key>: <Value>   (the exported measurement)
 *   # Variable <variable name>: <Key>: <Value>                          (each exported variable)
 *   # Device <device name>: <Key>: <Value>                              (each of their devices, once)
 * At most MAX_COMMENTS lines; a last line says how many were left out.
 */
export function metadataComments(measurement: string[], vars: (Variable & { deviceName?: string })[], rows: { Type: string; ID: string; Key: string; Value: string }[]): string[] {
  const lines = [...measurement];
  for (const v of vars) for (const r of rows) if (r.Type === "variable" && r.ID === v.Id) lines.push(`Variable ${v.Name}: ${r.Key}: ${r.Value}`);
  const devices = new Map<string, string>();
  for (const v of vars) if (v.DeviceId && !devices.has(v.DeviceId)) devices.set(v.DeviceId, v.deviceName || v.DeviceId);
  for (const [id, name] of devices) for (const r of rows) if (r.Type === "device" && r.ID === id) lines.push(`Device ${name}: ${r.Key}: ${r.Value}`);
  if (lines.length <= MAX_COMMENTS) return lines;
  return [...lines.slice(0, MAX_COMMENTS - 1), `(${lines.length - MAX_COMMENTS + 1} more metadata lines left out)`];
}

/** The operator annotations' lines after the metadata's, within the same MAX_COMMENTS. */
export function withNotes(lines: string[], notes: string[]): string[] {
  const all = [...lines, ...notes];
  if (all.length <= MAX_COMMENTS) return all;
  return [...all.slice(0, MAX_COMMENTS - 1), `(${all.length - MAX_COMMENTS + 1} more metadata and annotation lines left out)`];
}

/**
 * A file name that says what is inside: the measurement or the range (wall time in the user's
 * zone), the variables, raw or the resampling, e.g. `Oil-temperature+1_2026-01-01_1000-1100_raw.csv`.
 */
export function exportFileName(c: ExportChoices, vars: Variable[], range: { from: number; to: number }, zone: string, measurement: MeasurementRow | null): string {
  const names = vars.length > 2 ? `${vars[0]!.Name}+${vars.length - 1}` : vars.map((v) => v.Name).join("+");
  const what = c.mode === "raw" ? "raw" : `${c.aggregate}-${c.interval}s`;
  const when = measurement ? measurement.Name : `${stamp(range.from, zone)}_${stamp(range.to, zone)}`;
  return `${`${when}_${names}_${what}`.replace(/[^\p{L}\p{N}.+_-]+/gu, "-")}.${c.format === "udbf" ? "dat" : "csv"}`;
}

function stamp(ms: number, zone: string): string {
  const p = wallParts(ms, zone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}${p.minute}${p.second}`;
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.normalize("NFKD").replace(/[^\x20-\x7e]/g, "").replace(/["\\]/g, "");
  return `attachment; filename="${ascii || "export.csv"}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
