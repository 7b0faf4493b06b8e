import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

// Parsed once at startup; the client never sees any of it.
const schema = z.object({
  LOGGER_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  LOGGER_URL: z.url().optional(),
  LOGGER_CLIENT_ID: z.string().min(1).default("loggia-console"),
  LOGGER_CLIENT_SECRET: z.string().default("loggia-console-secret"),
  LOGGER_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  // A page load's wait for the logger's first answer; past it the page shows what it knows (0: off).
  LOGGER_PAGE_DEADLINE_MS: z.coerce.number().int().min(0).default(2_000),
  SESSION_SECRET: z.string().min(16).optional(),
  // The same secret from a file (a mounted secret): every replica of one deployment reads it.
  SESSION_SECRET_FILE: z.string().min(1).optional(),
  SESSION_MAX_AGE: z.coerce.number().int().min(60).default(60 * 60 * 24 * 7),
  // Behind a TLS-terminating reverse proxy the browser's origin (https://…) is not the one the
  // console sees (http://…): the origin check, redirects and Secure cookies need the real one.
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/ })
    .refine((u) => {
      const url = new URL(u);
      return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    }, "PUBLIC_ORIGIN must be an origin only (scheme://host[:port]), no path")
    .transform((u) => new URL(u).origin)
    .optional(),
  // X-Forwarded-Proto/Host/For are believed only when a proxy sets them: anyone can send them.
  TRUST_PROXY: z
    .enum(["0", "1", "true", "false", "yes", "no"])
    .transform((v) => ["1", "true", "yes"].includes(v))
    .default(false),
});

function load() {
  // An empty variable (FOO= in a unit file) means "not set".
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
  }
  const env = parsed.data;
  let secrets = sessionSecrets(env.SESSION_SECRET, env.SESSION_SECRET_FILE);
  if (!secrets.length) {
    // Behind a proxy there may be several consoles, and a cookie signed by one must be read by
    // all: a secret of this process alone would sign users out on every other one. So a proxied
    // console needs the deployment's secret, and says so rather than half work.
    if (env.TRUST_PROXY || env.PUBLIC_ORIGIN) {
      throw new Error("Invalid environment: behind a proxy (TRUST_PROXY or PUBLIC_ORIGIN) set SESSION_SECRET or SESSION_SECRET_FILE, the same for every console of the deployment");
    }
    // Sessions then end when the console restarts; `npm start` persists a secret in DATA_DIR.
    console.warn("SESSION_SECRET is not set: using a random secret for this run");
    secrets = [randomBytes(32).toString("hex")];
  }
  return {
    loggerUrl: (env.LOGGER_URL ?? `http://127.0.0.1:${env.LOGGER_PORT}`).replace(/\/+$/, ""),
    clientId: env.LOGGER_CLIENT_ID,
    clientSecret: env.LOGGER_CLIENT_SECRET,
    loggerTimeoutMs: env.LOGGER_TIMEOUT_MS,
    loggerPageDeadlineMs: env.LOGGER_PAGE_DEADLINE_MS,
    sessionSecrets: secrets,
    sessionMaxAge: env.SESSION_MAX_AGE,
    /** The origin browsers use (scheme://host[:port]), or null: then the request's own. */
    publicOrigin: env.PUBLIC_ORIGIN ?? null,
    trustProxy: env.TRUST_PROXY,
  };
}

/** SESSION_SECRET (comma-separated to rotate), else the file SESSION_SECRET_FILE names (one per line or comma-separated). */
export function sessionSecrets(value: string | undefined, file: string | undefined): string[] {
  if (value !== undefined && file !== undefined) throw new Error("Invalid environment: set SESSION_SECRET or SESSION_SECRET_FILE, not both");
  let text = value ?? "";
  if (file !== undefined) {
    try {
      text = readFileSync(file, "utf8");
    } catch (cause) {
      throw new Error(`Invalid environment: SESSION_SECRET_FILE ${file} cannot be read (${(cause as Error).message})`);
    }
  }
  const secrets = text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
  if (file !== undefined && !secrets.length) throw new Error(`Invalid environment: SESSION_SECRET_FILE ${file} is empty`);
  if (secrets.some((s) => s.length < 16)) throw new Error("Invalid environment: every session secret needs at least 16 characters");
  return secrets;
}

export const env = load();
