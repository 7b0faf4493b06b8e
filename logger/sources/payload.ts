import { pathSteps } from "./config.ts";

// Reading a value and its time out of a message payload (MQTT; decision 0010's JsonPath and
// TimestampPath). Each function returns the value or a reason string: a bad payload is counted,
// never thrown.

export type Parsed = { ok: true; value: number } | { ok: false; reason: string };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function asNumber(x: unknown, what: string): Parsed {
  if (typeof x === "number") return Number.isFinite(x) ? { ok: true, value: x } : { ok: false, reason: `${what} is not a finite number` };
  if (typeof x === "boolean") return { ok: true, value: x ? 1 : 0 };
  if (typeof x === "string") {
    const t = x.trim();
    if (NUMBER.test(t)) return { ok: true, value: Number(t) };
    if (t === "true" || t === "false") return { ok: true, value: t === "true" ? 1 : 0 };
    return { ok: false, reason: `${what} ${JSON.stringify(t.slice(0, 40))} is not a number` };
  }
  return { ok: false, reason: `${what} is ${x === null ? "null" : Array.isArray(x) ? "an array" : typeof x}, not a number` };
}

/** The value at a path of a parsed JSON document; undefined when a step is missing. */
export function at(doc: unknown, steps: readonly (string | number)[]): unknown {
  let cur = doc;
  for (const s of steps) {
    if (cur === null || typeof cur !== "object") return undefined;
    if (typeof s === "number") {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[s];
    } else {
      if (Array.isArray(cur) || !Object.hasOwn(cur, s)) return undefined;
      cur = (cur as Record<string, unknown>)[s];
    }
  }
  return cur;
}

/** A plain-number payload ("21.5", "true"). */
export function plainNumber(text: string): Parsed {
  return asNumber(text, "Payload");
}

/** The number at `path` of a JSON document. */
export function numberAt(doc: unknown, path: string, steps = pathSteps(path)): Parsed {
  const x = at(doc, steps);
  if (x === undefined) return { ok: false, reason: `JSON path ${path} not found in the payload` };
  return asNumber(x, `Value at ${path}`);
}

/**
 * A time at `path`: epoch milliseconds or seconds (a number below 1e11 is taken as seconds:
 * 1e11 s is the year 5138, 1e11 ms is 1973) or an ISO-8601 string.
 */
export function timeAt(doc: unknown, path: string, steps = pathSteps(path)): Parsed {
  const x = at(doc, steps);
  if (x === undefined) return { ok: false, reason: `Timestamp path ${path} not found in the payload` };
  if (typeof x === "number" || (typeof x === "string" && NUMBER.test(x.trim()))) {
    const n = Number(x);
    if (!Number.isFinite(n) || n <= 0) return { ok: false, reason: `Timestamp at ${path} is not a positive epoch time` };
    return { ok: true, value: n < 1e11 ? n * 1000 : n };
  }
  if (typeof x === "string") {
    // Date.parse also takes forms like "March 7"; only ISO-8601 date-times are meant.
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(x.trim())) return { ok: false, reason: `Timestamp at ${path} is neither epoch time nor ISO-8601` };
    const t = Date.parse(x.trim());
    return Number.isFinite(t) ? { ok: true, value: t } : { ok: false, reason: `Timestamp at ${path} is not a valid ISO-8601 time` };
  }
  return { ok: false, reason: `Timestamp at ${path} is neither epoch time nor ISO-8601` };
}

/** The payload an output publishes: the plain number, or a JSON document with it at `path`. */
export function payloadFor(value: number, path: string): string {
  if (path === "") return String(value);
  const steps = pathSteps(path);
  const root: unknown = typeof steps[0] === "number" ? [] : {};
  let cur = root as Record<string | number, unknown>;
  steps.forEach((s, i) => {
    const next = steps[i + 1];
    if (next === undefined) cur[s] = value;
    else {
      const child = typeof next === "number" ? [] : {};
      cur[s] = child;
      cur = child as Record<string | number, unknown>;
    }
  });
  return JSON.stringify(root);
}

/** Whether an MQTT topic matches a subscription filter (+ one level, # the rest; $-topics only literally). */
export function topicMatches(filter: string, topic: string): boolean {
  if (filter === topic) return true;
  const f = filter.split("/");
  const t = topic.split("/");
  if (topic.startsWith("$") && (f[0] === "+" || f[0] === "#")) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
