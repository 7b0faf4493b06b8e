/**
 * A logger answer that is not a success. `message` is what spec §8 says to show, in the reader's
 * language when the logger gave a refusal code the console knows (ReturnState.Code); `description`
 * is the logger's own words (English), which screens match to put a refusal next to its field.
 */
export class LoggerError extends Error {
  readonly status: number;
  readonly value: number | undefined;
  /** A 429's Retry-After, in seconds (the logger's sign-in throttle). */
  readonly retryAfterSec: number | undefined;
  /** A stable code and arguments beside the text, where the logger gives one (data sources: `Problem`), so it can be translated. */
  readonly problem: LoggerProblem | undefined;
  /** ReturnState.Code and Args of a coded refusal (docs/logger-api.md, "Refusal codes"). */
  readonly refusal: LoggerProblem | undefined;
  readonly description: string;
  constructor(status: number, text: string, value?: number, retryAfterSec?: number, problem?: LoggerProblem, refusal?: LoggerProblem, shown?: string) {
    super(shown ?? text);
    this.name = "LoggerError";
    this.status = status;
    this.value = value;
    this.retryAfterSec = retryAfterSec;
    this.problem = problem;
    this.refusal = refusal;
    this.description = text;
  }
}

/** ReturnState's Code and Args, if the answer has a well-formed pair. */
export function refusalIn(body: unknown): LoggerProblem | undefined {
  const rs = (body as { ReturnState?: { Code?: unknown; Args?: unknown } } | null)?.ReturnState;
  if (!rs || typeof rs.Code !== "string" || !/^\w{1,64}$/.test(rs.Code)) return undefined;
  const args = rs.Args && typeof rs.Args === "object" ? rs.Args : {};
  return { Code: rs.Code, Args: Object.fromEntries(Object.entries(args).filter(([, v]) => typeof v === "string" || typeof v === "number")) };
}

/** Says a coded refusal in the reader's language; `fallback` (the logger's Description) for a code it does not know. */
export type RefusalTexts = (refusal: LoggerProblem, fallback: string) => string;

export type LoggerProblem = { Code: string; Args: Record<string, string | number> };

/** The answer's `Problem` (beside ReturnState), if it has a well-formed one. */
export function problemIn(body: unknown): LoggerProblem | undefined {
  const p = (body as { Problem?: { Code?: unknown; Args?: unknown } } | null)?.Problem;
  if (!p || typeof p.Code !== "string" || !p.Args || typeof p.Args !== "object") return undefined;
  return { Code: p.Code, Args: Object.fromEntries(Object.entries(p.Args).filter(([, v]) => typeof v === "string" || typeof v === "number")) };
}

/** Retry-After in whole seconds (delta form; the logger never sends a date); undefined if absent or odd. */
export function retryAfterOf(res: Response): number | undefined {
  const raw = res.headers.get("Retry-After");
  if (raw === null || !/^\d{1,7}$/.test(raw.trim())) return undefined;
  return Math.max(1, Number(raw.trim()));
}

/** Spec §8: ReturnState.Description, else faultString, else the HTTP status. */
export function errorText(status: number, statusText: string, body: unknown): string {
  if (body && typeof body === "object") {
    const b = body as { ReturnState?: { Description?: unknown }; faultString?: unknown; error_description?: unknown };
    const description = b.ReturnState?.Description;
    if (typeof description === "string" && description) return description;
    if (typeof b.faultString === "string" && b.faultString) return b.faultString;
    if (typeof b.error_description === "string" && b.error_description) return b.error_description;
  }
  return statusText ? `${status} ${statusText}` : String(status);
}
