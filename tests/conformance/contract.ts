// Field-by-field checks of the answers listed in shared/design/LOGGER-API.md ("Conventions",
// "Auth", "Data"). Types as the contract defines them: `int` = an integral JSON number,
// `float` = a JSON number (never null unless the contract marks the field `?`), `str` = a
// string. Extra fields are always allowed. A failure names the call and the field path:
//   GET /history/structure/sources → Data[0].Index: expected int, got undefined
import { z } from "zod";
import { show } from "./client.ts";

// ---------------------------------------------------------------- leaf types
// Every leaf carries the contract's type name as its error, so a report reads "expected int".

const int = () => z.int({ error: "int" });
const float = () => z.number({ error: "float" });
const str = () => z.string({ error: "str" });
const bool = () => z.boolean({ error: "boolean" });
/** `?` in the contract: may be null (or left out). */
const intQ = () => z.int({ error: "int or null" }).nullish();
const floatQ = () => z.number({ error: "float or null" }).nullish();
const strQ = () => z.string({ error: "str or null" }).nullish();
/** Ids of sources, measurements and variables: UUID strings on our logger, ints on some of the family. */
const id = () => z.union([z.string().min(1, { error: "str or int (an id), not empty" }), z.int()], { error: "str or int (an id)" });
const uuid = () => z.guid({ error: "str (UUID)" });
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: "object" });
const list = <T extends z.ZodType>(item: T) => z.array(item, { error: "array" });

export const DATA_FORMATS = ["BOOL", "SINT8", "USINT8", "SINT16", "USINT16", "SINT32", "USINT32", "FLOAT", "DOUBLE", "SINT64", "USINT64"] as const;
const dataFormat = () => z.enum(DATA_FORMATS, { error: `one of ${DATA_FORMATS.join(", ")}` });
const direction = () => z.enum(["I", "O", "IO"], { error: "one of I, O, IO" });

// ---------------------------------------------------------------- Conventions and Auth

export const ReturnState = obj({ Value: int(), Description: str() });
export const WithReturnState = obj({ ReturnState });

export const LoginRequiredAnswer = obj({ LoginRequired: bool(), ReturnState });
export const LoginAnswer = obj({ AccessToken: str(), RefreshToken: str(), ExpiresIn: float(), ReturnState });

// ---------------------------------------------------------------- Data

/** `GET /online/structure/variables` */
export const OnlineVariable = obj({
  Id: uuid(),
  Name: str(),
  Unit: str(),
  DataFormat: dataFormat(),
  Direction: direction(),
  Index: int(),
  IndexIn: int(),
  IndexOut: int(),
  Precision: int(),
  RangeMin: floatQ(),
  RangeMax: floatQ(),
});
export const OnlineVariablesAnswer = obj({ Success: bool(), Data: list(OnlineVariable) });

/** `POST /online/data {Variables, Function: "read"}` */
export const OnlineReadAnswer = obj({ Success: bool(), Data: obj({ Values: list(z.number({ error: "float" })) }) });

/** `GET /{buffer|history}/structure/sources` */
export const Source = obj({
  Id: id(),
  Name: str(),
  Index: int(),
  SampleRateHz: float(),
  AbsoluteStart: float(),
  LastTimeStamp: float(),
  AvailableTimeSec: float(),
});
export const SourcesAnswer = obj({ Success: bool(), Data: list(Source) });

/** `GET /{buffer|history}/structure/sources/{sid}/variables` */
export const SourceVariable = obj({
  Id: id(),
  Name: str(),
  Index: int(),
  Unit: str(),
  DataFormat: dataFormat(),
  GQLId: strQ(),
});
export const SourceVariablesAnswer = obj({ Success: bool(), Data: list(SourceVariable) });

/** A measurement's variable when `AddVarMapping` is true: every field, ranges are numbers. */
export const MeasurementVariable = obj({
  Id: id(),
  Name: str(),
  DataFormat: dataFormat(),
  Direction: direction(),
  Type: str(),
  Index: int(),
  IndexIn: int(),
  IndexOut: int(),
  Precision: int(),
  RangeMin: float(),
  RangeMax: float(),
  Unit: str(),
});

/** `POST /{buffer|history}/structure/sources/{sid}/measurements {…, AddVarMapping: true}` */
export const Measurement = obj({
  Id: id(),
  Name: strQ(),
  AbsoluteStart: float(),
  LastTimeStamp: float(),
  SampleRateHz: float(),
  SourceId: id(),
  AvailableTimeSec: floatQ(),
  Index: intQ(),
  Kind: strQ(),
  StartDate: strQ(),
  MetaData: z.unknown().optional(),
  Variables: list(MeasurementVariable),
});
export const MeasurementsAnswer = obj({ Success: bool(), Data: list(Measurement) });

/** `POST /{buffer|history}/data` (JSON): one item's TimeSeries. */
export const TimeSeries = obj({
  Type: str(),
  Format: str(),
  Unit: str(),
  Start: float(),
  AbsoluteStart: float(),
  Delta: float(),
  End: float(),
  Size: int(),
  // For a buffer read there may be no measurement to name: any str or int.
  MeasurementId: z.union([z.string(), z.int()], { error: "str or int" }),
  Updating: z.boolean({ error: "boolean or null" }).nullish(),
  // A gap is null (the family's clients read `float | None`).
  Values: list(list(z.number({ error: "float or null" }).nullable())),
});
export const DataItem = obj({ TimeSeries });
/** Data is a list of items, or a single item (clients accept both; a single item is checked as Data[0]). */
export const DataAnswer = obj({
  Success: bool(),
  Data: z.preprocess((v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? [v] : v), z.array(DataItem, { error: "array of {TimeSeries} or one {TimeSeries}" })),
});

/** `POST /history/data/import` */
export const ImportSessionAnswer = obj({ Data: obj({ SessionId: id() }) });

/** WebSocket Publish payload (worker 2): a list of `{_id, Id, State, Values}`. */
const present = () => z.custom((v) => v !== undefined, { error: "present (any type)" });
export const PublishItem = obj({
  _id: present(),
  Id: id(),
  State: present(),
  Values: z.union([z.number(), z.array(z.number())], { error: "float or array of float" }),
});
export const PublishPayload = list(PublishItem);

// ---------------------------------------------------------------- checking

export class ContractError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "ContractError";
    this.problems = problems;
  }
}

/** `Data[0].Variables[2].RangeMin` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(answer)";
}

/**
 * Checks `value` against `schema`. Returns the problems, one line each, as
 * `<label> → <path>: expected <type>, got <value>`. Repeats of the same field in other list
 * items are folded into the first ("… (the same field fails in 27 more items)").
 */
export function problemsOf(label: string, schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return [];
  const byField = new Map<string, { line: string; count: number }>();
  for (const issue of result.error.issues) {
    const path = issue.path as PropertyKey[];
    const field = formatPath(path.map((k) => (typeof k === "number" ? -1 : k))).replace(/\[-1\]/g, "[*]");
    // Custom checks here only ask for presence, so a value they refuse is a missing one.
    const got = "input" in issue ? show(issue.input) : issue.code === "custom" ? "undefined" : "?";
    const line = `${label} → ${formatPath(path)}: expected ${issue.message}, got ${got}`;
    const seen = byField.get(field);
    if (seen) seen.count++;
    else byField.set(field, { line, count: 0 });
  }
  return [...byField.values()].map(({ line, count }) => (count ? `${line} (the same field fails in ${count} more items)` : line));
}

/** Throws a ContractError listing every problem; returns the value typed by the schema otherwise. */
export function assertConform<T extends z.ZodType>(label: string, schema: T, value: unknown): z.infer<T> {
  const problems = problemsOf(label, schema, value);
  if (problems.length) throw new ContractError(problems);
  return value as z.infer<T>;
}

/** The answer's items whether `Data` is a list or a single object. */
export function dataItems(json: any): any[] {
  if (json == null || json.Data == null) return [];
  return Array.isArray(json.Data) ? json.Data : [json.Data];
}

/** Collects problems across several checks, then throws them all at once. */
export class Problems {
  readonly lines: string[] = [];
  add(line: string) {
    this.lines.push(line);
  }
  check(label: string, schema: z.ZodType, value: unknown): boolean {
    const found = problemsOf(label, schema, value);
    this.lines.push(...found);
    return found.length === 0;
  }
  /** Adds `line` when `ok` is false. */
  expect(ok: boolean, line: string): boolean {
    if (!ok) this.lines.push(line);
    return ok;
  }
  throwIfAny() {
    if (this.lines.length) throw new ContractError(this.lines);
  }
}
