import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { parseAllowList } from "./alarms/egress.ts";
import { DOCUMENTED_CLIENT_SECRET, clientSecretProblem } from "./auth/client-secret.ts";
import { parseHostnames, parseOrigins } from "./http/origin.ts";
import { startLogger } from "./server.ts";
import { parseDuration } from "./sim/options.ts";
import { DEFAULT_LOGGER_ID, LOGGER_ID_PATTERN } from "./store/postgres/open.ts";

// An empty variable (FOO= in a .env file) means "not set", not "set to nothing".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema);

const Env = z.object({
  LOGGER_PORT: optional(z.coerce.number().int().min(0).max(65535).default(8081)),
  LOGGER_HOST: optional(z.string().default("127.0.0.1")),
  DATA_DIR: optional(z.string().default("./data")),
  // postgres://user:password@host:5432/db — the whole store in PostgreSQL (issue 17); unset: SQLite in DATA_DIR.
  STORE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, "expected postgres://user:password@host:port/database").optional()),
  // This logger's id on that database: its schema loggia_<LOGGER_ID> and the lease of the id.
  LOGGER_ID: optional(z.string().regex(LOGGER_ID_PATTERN, "use 1 to 40 lowercase letters, digits or _").default(DEFAULT_LOGGER_ID)),
  LOGGER_MODE: optional(z.enum(["service", "controller"]).default("service")),
  ADMIN_PASSWORD: optional(z.string().optional()),
  LOGGER_CLIENT_ID: optional(z.string().default("loggia-console")),
  LOGGER_CLIENT_SECRET: optional(z.string().default(DOCUMENTED_CLIENT_SECRET)),
  // Hosts, addresses and CIDR ranges notifications may reach although private (alarms/egress.ts).
  NOTIFY_ALLOW: optional(z.string().default("")),
  // Pages of these origins may send requests (the console's; npm start passes it): any other is refused.
  LOGGER_ALLOWED_ORIGINS: optional(z.string().default("")),
  // The names the logger is reached by; set, any other Host is refused (DNS rebinding). Unset:
  // loopback names and addresses only when it listens on loopback, any name otherwise.
  LOGGER_HOSTNAMES: optional(z.string().default("")),
  ACCESS_TOKEN_TTL: optional(z.coerce.number().positive().default(900)),
  REFRESH_TOKEN_TTL: optional(z.coerce.number().positive().default(604800)),
  SIM: optional(z.enum(["on", "off"]).default("on")),
  SIM_SEED: optional(z.coerce.number().int().min(0).max(4294967295).default(1)),
  SIM_BENCH_RATE_HZ: optional(
    z.coerce.number().positive().max(100_000).refine((r) => Number.isInteger(1e6 / r), { message: "1,000,000 / rate must be a whole number" }).default(100),
  ),
  SIM_BENCH_CHANNELS: optional(z.coerce.number().int().min(1).max(256).default(16)),
  SIM_RETENTION: optional(z.string().default("90d")),
  BACKFILL: optional(z.string().optional()),
  // How complete series rows are stored (docs/storage.md): packed (lossless, about half the
  // bytes) or plain float32 as before issue 29; rows are read in either form.
  SERIES_CODEC: optional(z.enum(["packed", "plain"]).default("packed")),
  // When background packing of rows stored before packing existed starts; off: never.
  SERIES_COMPACT_AFTER: optional(z.string().default("30s")),
  // npm start sets it: the first hour only for a store this start creates (on either engine).
  BACKFILL_IF_NEW: optional(z.string().optional()),
  // While the store does not take writes: samples kept in memory at most (docs/storage.md, "Store outages").
  STORE_BUFFER_MB: optional(z.coerce.number().positive().max(1_000_000).default(256)),
  STORE_BUFFER_TIME: optional(z.string().default("1h")),
});

const duration = (name: string, text: string, allowOff: boolean): number | null => {
  if (allowOff && /^(off|0|forever)$/i.test(text)) return null;
  const sec = parseDuration(text);
  if (!(sec > 0)) fail(`${name}: expected a duration like 30d, 12h, 90m or 3600`);
  return sec;
};

function fail(message: string): never {
  process.stderr.write(`logger: ${message}\n`);
  process.exit(2);
}

const { values: flags } = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: "string" },
        data: { type: "string" },
        host: { type: "string" },
        controller: { type: "boolean" },
        backfill: { type: "string" },
      },
    });
  } catch (err) {
    return fail((err as Error).message);
  }
})();

const parsed = Env.safeParse({
  ...process.env,
  ...(flags.port !== undefined && { LOGGER_PORT: flags.port }),
  ...(flags.data !== undefined && { DATA_DIR: flags.data }),
  ...(flags.host !== undefined && { LOGGER_HOST: flags.host }),
  ...(flags.backfill !== undefined && { BACKFILL: flags.backfill }),
});
if (!parsed.success) {
  fail(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
}
const env = parsed.data;
const secretProblem = clientSecretProblem(env.LOGGER_HOST, env.LOGGER_CLIENT_SECRET);
if (secretProblem) fail(secretProblem);
try {
  parseAllowList(env.NOTIFY_ALLOW);
} catch (err) {
  fail((err as Error).message);
}
const [allowedOrigins, hostnames] = (() => {
  try {
    return [parseOrigins(env.LOGGER_ALLOWED_ORIGINS), env.LOGGER_HOSTNAMES ? parseHostnames(env.LOGGER_HOSTNAMES) : undefined];
  } catch (err) {
    return fail((err as Error).message);
  }
})();
const backfillSec = env.BACKFILL ? duration("BACKFILL", env.BACKFILL, false)! : 0;
const backfillIfNewSec = env.BACKFILL_IF_NEW ? duration("BACKFILL_IF_NEW", env.BACKFILL_IF_NEW, false)! : 0;
const retentionSec = duration("SIM_RETENTION", env.SIM_RETENTION, true);
const storeBufferSec = duration("STORE_BUFFER_TIME", env.STORE_BUFFER_TIME, false)!;
const compactAfterSec = duration("SERIES_COMPACT_AFTER", env.SERIES_COMPACT_AFTER, true);

const logger = await startLogger({
  port: env.LOGGER_PORT,
  host: env.LOGGER_HOST,
  dataDir: env.DATA_DIR,
  storeUrl: env.STORE_URL,
  loggerId: env.LOGGER_ID,
  backfillIfNewSec,
  controller: flags.controller === true || env.LOGGER_MODE === "controller",
  adminPassword: env.ADMIN_PASSWORD,
  clientId: env.LOGGER_CLIENT_ID,
  clientSecret: env.LOGGER_CLIENT_SECRET,
  accessTtlSec: env.ACCESS_TOKEN_TTL,
  refreshTtlSec: env.REFRESH_TOKEN_TTL,
  alarms: { allow: env.NOTIFY_ALLOW },
  allowedOrigins,
  hostnames,
  storeBuffer: { maxBytes: Math.round(env.STORE_BUFFER_MB * 1024 * 1024), maxMs: storeBufferSec * 1000 },
  series: { codec: env.SERIES_CODEC, compactAfterMs: compactAfterSec === null ? null : compactAfterSec * 1000 },
  simulator: env.SIM === "on" && {
    seed: env.SIM_SEED,
    benchRateHz: env.SIM_BENCH_RATE_HZ,
    benchChannels: env.SIM_BENCH_CHANNELS,
    retentionSec,
    backfillSec,
  },
}).catch((err: Error) => fail(err.message));

// Before "listening": npm start reads it to tell a new installation (first sign-in hint).
if (logger.created) process.stdout.write("logger: new store created (first start)\n");
if (logger.initialAdminPassword) {
  // Said once, to whoever started it, and kept beside the data for who missed it (readable by the
  // logger's user only); it stops working at the first sign-in, which asks for a new one.
  const file = join(env.DATA_DIR, "initial-admin-password");
  let kept = `; also in ${file}`;
  try {
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(file, `${logger.initialAdminPassword}\n`, { mode: 0o600 });
  } catch (err) {
    // With STORE_URL nothing else needs DATA_DIR: a folder that cannot be written costs only the copy.
    kept = `; not kept in ${file}: ${(err as Error).message}`;
  }
  process.stdout.write(`logger: first sign-in: admin / ${logger.initialAdminPassword} (to be changed at the first sign-in${kept})\n`);
}
process.stdout.write(`logger listening on ${logger.url}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  logger.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
