import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // LOGGIA_BUILD_DIR: a build elsewhere than build/ (measuring bundle sizes while end-to-end tests use build/).
  buildDirectory: process.env.LOGGIA_BUILD_DIR ?? "build",
  // React Router's own check compares an action's Origin with the URL the server sees, which is
  // wrong behind a TLS-terminating proxy (400 for every sign-in) and skips resource routes. The
  // console's one origin check (app/services/requestGate.server.ts, run by server/main.ts before
  // React Router for every request that is not GET or HEAD) replaces it, so this lets all pass.
  allowedActionOrigins: ["**"],
} satisfies Config;
