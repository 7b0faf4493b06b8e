import { inject } from "vitest";

// The conformance suite starts logger/main.ts as a child process with this process's
// environment: STORE_URL puts that logger on the suite's PostgreSQL.
process.env.STORE_URL = inject("storeUrl");
process.env.LOGGER_ID = "conformance";
