import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { startPostgres } from "../support/postgres.ts";

// The web server of playwright.pg.config.ts (issue 17): a throwaway PostgreSQL on E2E_PG_PORT,
// then `npm start` (scripts/start.ts: the built console + embedded logger) with STORE_URL on it.
// SIGTERM/SIGINT (Playwright stopping its web server) stops both and removes PostgreSQL's folder.
const root = resolve(import.meta.dirname, "../..");
const pg = await startPostgres({ port: Number(process.env.E2E_PG_PORT ?? 55540) });
console.error(`[pg-e2e] PostgreSQL on port ${pg.port} (${pg.dir})`);
const app = spawn(process.execPath, ["scripts/start.ts"], { cwd: root, env: { ...process.env, STORE_URL: pg.url, LOGGER_ID: "e2e" }, stdio: "inherit" });
let stopping = false;
const quit = async (code: number) => {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null) await new Promise((r) => (app.once("exit", r), app.kill("SIGTERM")));
  await pg.stop();
  process.exit(code);
};
app.once("exit", (code) => void quit(code ?? 1));
process.once("SIGTERM", () => void quit(0));
process.once("SIGINT", () => void quit(0));
