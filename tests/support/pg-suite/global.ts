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
  // Every logger of the suite holds a few connections, and test files run side by side.
  const pg = await startPostgres({ port: 55435, settings: { max_connections: "400" } });
  project.provide("storeUrl", pg.url);
  process.stdout.write(`test:pg — PostgreSQL at ${pg.url.replace(/:[^:@/]+@/, ":***@")}\n`);
  return () => pg.stop();
}
