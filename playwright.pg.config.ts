import { defineConfig } from "@playwright/test";
import base from "./playwright.config.ts";

// A representative end-to-end subset on the PostgreSQL store (issue 17): the same projects and
// specs as playwright.config.ts, run against the built console + embedded logger whose
// STORE_URL points at a throwaway PostgreSQL (tests/e2e/pgStack.ts), after the SQLite run
// (`npm run test:e2e:pg`, part of npm test). Ports of its own so the two runs never collide;
// set here, after playwright.config.ts took its defaults, and the same in every worker (the
// workers re-read this file) so fixtures.ts talks to this stack's logger.
process.env.E2E_PORT = process.env.E2E_PG_WEB_PORT ?? "39320";
process.env.E2E_LOGGER_PORT = process.env.E2E_PG_LOGGER_PORT ?? "39321";
process.env.E2E_PG_PORT ??= "55540";
const baseURL = `http://localhost:${process.env.E2E_PORT}`;

// pg-outage.spec.ts is left out of the SQLite run by playwright.config.ts.
// Every store of the logger is touched: users and roles (the last-Administrator check-then-write),
// dashboards, live values, history and analytics series, CSV export, alarms, the kiosk; and the
// outage of PostgreSQL itself (pg-outage.spec.ts, which starts a stack of its own).
const spec = (...names: string[]) => names.map((n) => new RegExp(`/${n.replace(/\./g, "\\.")}\\.spec\\.ts$`));
const SUBSET: Record<string, RegExp[]> = {
  // Signing in with JavaScript is what every js spec's first step does.
  js: spec("dashboards", "live", "analytics", "pg-outage"),
  nojs: spec("signin", "users.nojs", "export.nojs", "alarming.nojs"),
  kiosk: spec("kiosk"),
};

const server = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  use: { ...base.use, baseURL },
  // Tests of the console alone (URL state, redirects, menus), nothing the store answers: kept lean.
  grepInvert: /time range and refresh interval live in the URL|redirect_uri is followed|user menu offers/,
  projects: base.projects!.map((p) => ({ ...p, testMatch: SUBSET[p.name!]!, testIgnore: [] })),
  webServer: {
    ...server,
    command: "node tests/e2e/pgStack.ts",
    url: `${baseURL}/signin`,
    env: { ...server.env, PORT: process.env.E2E_PORT, LOGGER_PORT: process.env.E2E_LOGGER_PORT, E2E_PG_PORT: process.env.E2E_PG_PORT },
  },
});
