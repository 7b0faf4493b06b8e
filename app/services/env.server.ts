import { randomBytes } from "node:crypto";
import { z } from "zod";

// Parsed once at startup; the client never sees any of it.
const schema = z.object({
  LOGGER_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  LOGGER_URL: z.url().optional(),
  LOGGER_CLIENT_ID: z.string().min(1).default("loggia-console"),
  LOGGER_CLIENT_SECRET: z.string().default("loggia-console-secret"),
  LOGGER_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  SESSION_SECRET: z.string().min(16).optional(),
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
  let secrets = env.SESSION_SECRET?.split(",").map((s) => s.trim()).filter(Boolean);
  if (!secrets?.length) {
    // Sessions then end when the console restarts; `npm start` persists a secret in DATA_DIR.
    console.warn("SESSION_SECRET is not set: using a random secret for this run");
    secrets = [randomBytes(32).toString("hex")];
  }
  return {
    loggerUrl: (env.LOGGER_URL ?? `http://127.0.0.1:${env.LOGGER_PORT}`).replace(/\/+$/, ""),
    clientId: env.LOGGER_CLIENT_ID,
    clientSecret: env.LOGGER_CLIENT_SECRET,
    loggerTimeoutMs: env.LOGGER_TIMEOUT_MS,
    sessionSecrets: secrets,
    sessionMaxAge: env.SESSION_MAX_AGE,
    /** The origin browsers use (scheme://host[:port]), or null: then the request's own. */
    publicOrigin: env.PUBLIC_ORIGIN ?? null,
    trustProxy: env.TRUST_PROXY,
  };
}

export const env = load();
