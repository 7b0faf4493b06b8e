// The connection problems a data source reports (decision 0010, "Connection problems"): one
// English text per problem for API clients and the trace log, built here, and a stable code with
// its arguments beside it in DataSourceAPI.GetState, so the console shows them in the user's
// language. The drivers build their error texts with `problemText`; `problemOf` reads a text back
// into its code (anything not built here is "other", with the text as its detail).

export const PROBLEM_CODES = [
  "refused",
  "hostNotFound",
  "unreachable",
  "reset",
  "closed",
  "timeout",
  "auth",
  "security",
  "certificateRejected",
  "certificateNotTrusted",
  "noKeepAlive",
  "modbusException",
  "noDriver",
  "clientNotLoaded",
  "other",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
export type ProblemArgs = Record<string, string | number>;
export type Problem = { Code: ProblemCode; Args: ProblemArgs };

type Entry = { text: (a: ProblemArgs) => string; re: RegExp; keys: string[] };

// Each text and the pattern that reads it back; arguments in the order of the pattern's groups.
const CATALOG: Record<Exclude<ProblemCode, "other">, Entry> = {
  refused: { text: (a) => `Connection refused by ${a.where}`, re: /^Connection refused by (.+)$/, keys: ["where"] },
  hostNotFound: { text: (a) => `Host of ${a.where} not found`, re: /^Host of (.+) not found$/, keys: ["where"] },
  unreachable: { text: (a) => `${a.where} is unreachable`, re: /^(.+) is unreachable$/, keys: ["where"] },
  reset: { text: (a) => `Connection to ${a.where} was reset`, re: /^Connection to (.+) was reset$/, keys: ["where"] },
  closed: { text: (a) => `Connection to ${a.where} was closed`, re: /^Connection to (.+) was closed$/, keys: ["where"] },
  timeout: { text: (a) => `No answer from ${a.where} (timeout)`, re: /^No answer from (.+?) \(timeout\)$/, keys: ["where"] },
  auth: { text: (a) => `${a.where} refused the sign-in (user name or password)`, re: /^(.+) refused the sign-in \(user name or password\)$/, keys: ["where"] },
  security: {
    text: (a) => `${a.where} offers no endpoint with security ${a.mode} / ${a.policy}`,
    re: /^(.+) offers no endpoint with security (\S+) \/ (\S+)$/,
    keys: ["where", "mode", "policy"],
  },
  certificateRejected: { text: (a) => `${a.where} rejected the certificate: ${a.detail}`, re: /^(.+?) rejected the certificate: (.*)$/, keys: ["where", "detail"] },
  certificateNotTrusted: {
    text: (a) => `The certificate of ${a.where} is not trusted (${a.detail})`,
    re: /^The certificate of (.+?) is not trusted \((.*)\)$/,
    keys: ["where", "detail"],
  },
  noKeepAlive: { text: (a) => `No keep-alive from ${a.where} for ${a.seconds} s`, re: /^No keep-alive from (.+) for (\d+) s$/, keys: ["where", "seconds"] },
  modbusException: { text: (a) => `Modbus exception ${a.code} (${a.name})`, re: /^Modbus exception (\d+) \(([^)]*)\)/, keys: ["code", "name"] },
  noDriver: { text: (a) => `No driver for protocol ${a.protocol} in this build`, re: /^No driver for protocol (\S+) in this build$/, keys: ["protocol"] },
  clientNotLoaded: { text: (a) => `The OPC UA client could not be loaded: ${a.detail}`, re: /^The OPC UA client could not be loaded: (.*)$/, keys: ["detail"] },
};

/** The English text of a problem (what LastError, the trace log and the RPC errors say). */
export function problemText(code: Exclude<ProblemCode, "other">, args: ProblemArgs): string {
  return CATALOG[code].text(args);
}

/** The code and arguments of a text built by problemText; any other text is "other" with the text as its detail. */
export function problemOf(text: string): Problem {
  for (const [code, e] of Object.entries(CATALOG) as [Exclude<ProblemCode, "other">, Entry][]) {
    const m = e.re.exec(text);
    if (!m) continue;
    const Args: ProblemArgs = {};
    e.keys.forEach((k, i) => {
      const v = m[i + 1] ?? "";
      Args[k] = /^\d+$/.test(v) && (k === "seconds" || k === "code") ? Number(v) : v;
    });
    return { Code: code, Args };
  }
  return { Code: "other", Args: { detail: text } };
}
