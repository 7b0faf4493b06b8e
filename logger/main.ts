import { parseArgs } from "node:util";
import { z } from "zod";
import { startLogger } from "./server.ts";

// An empty variable (FOO= in a .env file) means "not set", not "set to nothing".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema);

const Env = z.object({
  LOGGER_PORT: optional(z.coerce.number().int().min(0).max(65535).default(8081)),
  LOGGER_HOST: optional(z.string().default("127.0.0.1")),
  DATA_DIR: optional(z.string().default("./data")),
  LOGGER_MODE: optional(z.enum(["service", "controller"]).default("service")),
  ADMIN_PASSWORD: optional(z.string().optional()),
  LOGGER_CLIENT_ID: optional(z.string().default("loggia-console")),
  LOGGER_CLIENT_SECRET: optional(z.string().default("loggia-console-secret")),
  ACCESS_TOKEN_TTL: optional(z.coerce.number().positive().default(900)),
  REFRESH_TOKEN_TTL: optional(z.coerce.number().positive().default(604800)),
});

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
});
if (!parsed.success) {
  fail(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
}
const env = parsed.data;

const logger = await startLogger({
  port: env.LOGGER_PORT,
  host: env.LOGGER_HOST,
  dataDir: env.DATA_DIR,
  controller: flags.controller === true || env.LOGGER_MODE === "controller",
  adminPassword: env.ADMIN_PASSWORD,
  clientId: env.LOGGER_CLIENT_ID,
  clientSecret: env.LOGGER_CLIENT_SECRET,
  accessTtlSec: env.ACCESS_TOKEN_TTL,
  refreshTtlSec: env.REFRESH_TOKEN_TTL,
}).catch((err: Error) => fail(err.message));

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
