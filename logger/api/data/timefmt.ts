const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/**
 * Formats epoch ms as local time in an IANA zone ("2026-11-03 14:05:00.250+01:00"), or ISO
 * UTC for "UTC". Offsets are looked up once per hour, not per row. null = unknown zone.
 */
export function timeFormatter(zone: string): ((ms: number) => string) | null {
  if (zone === "UTC" || zone === "Etc/UTC") return (ms) => new Date(ms).toISOString();
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return null;
  return (ms) => {
    const off = offsetAt(ms);
    const d = new Date(ms + off * 60_000);
    const sign = off < 0 ? "-" : "+";
    const a = Math.abs(off);
    return (
      `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
      `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}` +
      `${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`
    );
  };
}

/** Minutes east of UTC in an IANA zone at an instant; null = unknown zone. */
export function zoneOffset(zone: string): ((ms: number) => number) | null {
  if (zone === "UTC" || zone === "Etc/UTC") return () => 0;
  let dtf: Intl.DateTimeFormat;
  try {
    dtf = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch {
    return null;
  }
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const hour = Math.floor(ms / 3_600_000);
    let off = offsets.get(hour);
    if (off === undefined) {
      const parts = Object.fromEntries(dtf.formatToParts(new Date(hour * 3_600_000)).map((x) => [x.type, x.value]));
      const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
      off = (local - hour * 3_600_000) / 60_000;
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(hour, off);
    }
    return off;
  };
  return offsetAt;
}

/**
 * The contract's strftime-like DateTimeFormat (LOGGER-API.md, CSVSettings) in an IANA zone:
 * %Y %y %m %d %H %M %S %j, %F (= %Y-%m-%d), %T (= %H:%M:%S), %z (+hhmm), %:z (+hh:mm), %s (epoch
 * seconds), %% (a percent sign) and the fraction of the second `%%<n>us` — n digits (1–6), with
 * `%%0us` all six (microseconds). Anything else after % is refused: a typo would otherwise land
 * in every row. Returns the formatter or the text of the problem.
 */
export function dateTimeFormatter(format: string, zone: string): ((ms: number) => string) | { problem: string } {
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return { problem: `Unknown TimeZone ${zone}` };
  type Piece = string | ((d: Date, off: number, sec: number) => string);
  const pieces: Piece[] = [];
  const fractions: { at: number; digits: number }[] = [];
  let literal = "";
  const flush = () => {
    if (literal) pieces.push(literal);
    literal = "";
  };
  const offsetText = (off: number, colon: boolean) => {
    const a = Math.abs(off);
    return `${off < 0 ? "-" : "+"}${pad(Math.floor(a / 60))}${colon ? ":" : ""}${pad(a % 60)}`;
  };
  const tokens: Record<string, (d: Date, off: number, sec: number) => string> = {
    Y: (d) => String(d.getUTCFullYear()),
    y: (d) => pad(d.getUTCFullYear() % 100),
    m: (d) => pad(d.getUTCMonth() + 1),
    d: (d) => pad(d.getUTCDate()),
    H: (d) => pad(d.getUTCHours()),
    M: (d) => pad(d.getUTCMinutes()),
    S: (d) => pad(d.getUTCSeconds()),
    j: (d) => pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3),
    F: (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    T: (d) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    z: (_d, off) => offsetText(off, false),
    s: (_d, _off, sec) => String(sec),
  };
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== "%") {
      literal += c;
      continue;
    }
    const rest = format.slice(i + 1);
    const fraction = /^%([0-6])us/.exec(rest);
    if (fraction) {
      flush();
      fractions.push({ at: pieces.length, digits: Number(fraction[1]) || 6 });
      pieces.push("");
      i += fraction[0].length;
    } else if (rest.startsWith("%")) {
      literal += "%";
      i += 1;
    } else if (rest.startsWith(":z")) {
      flush();
      pieces.push((_d, off) => offsetText(off, true));
      i += 2;
    } else if (tokens[rest[0] ?? ""]) {
      flush();
      pieces.push(tokens[rest[0]!]!);
      i += 1;
    } else {
      return { problem: `DateTimeFormat: unknown directive %${rest[0] ?? ""} at position ${i + 1}` };
    }
  }
  flush();
  // Rows of one second share everything but the fraction (offsets change on whole minutes at most).
  let second = Number.NaN;
  const text = pieces.map((p) => (typeof p === "string" ? p : ""));
  return (ms) => {
    const sec = Math.floor(ms / 1000);
    if (sec !== second) {
      second = sec;
      const off = offsetAt(ms);
      const d = new Date(sec * 1000 + off * 60_000);
      pieces.forEach((p, k) => {
        if (typeof p !== "string") text[k] = p(d, off, sec);
      });
    }
    if (fractions.length) {
      const us = Math.min(999_999, Math.round((ms - sec * 1000) * 1000));
      for (const f of fractions) text[f.at] = pad(Math.floor(us / 10 ** (6 - f.digits)), f.digits);
    }
    return text.join("");
  };
}
