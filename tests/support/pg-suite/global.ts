import pg from "pg";
import type { TestProject } from "vitest/node";
import { startPostgres } from "../postgres.ts";

// `npm run test:pg`: one throwaway PostgreSQL for the whole run; its URL is handed to the test
// files (inject("storeUrl")), which put every logger they start on it.

declare module "vitest" {
  export interface ProvidedContext {
    storeUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // PG_SUITE_PORT: another port, for two runs side by side.
  // Every logger of the suite holds a few connections, and test files run side by side.
  const server = await startPostgres({ port: Number(process.env.PG_SUITE_PORT ?? 55435), settings: { max_connections: "400" } });
  project.provide("storeUrl", server.url);
  process.stdout.write(`test:pg — PostgreSQL at ${server.url.replace(/:[^:@/]+@/, ":***@")}\n`);
  return async () => {
    // Proof that the loggers really were on PostgreSQL: the schemas they left.
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    const { rows } = await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'loggia\\_%'");
    await c.end();
    process.stdout.write(`test:pg — ${rows[0]!.n} logger schema(s) were used\n`);
    await server.stop();
  };
}
