import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

// One console + embedded logger for the whole run, on spare ports and a throwaway data folder.
// Values go into process.env so the workers (which re-read this file) see the same ones.
process.env.E2E_PORT ??= "39310";
process.env.E2E_LOGGER_PORT ??= "39311";
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "loggia-e2e-"));
process.env.E2E_ADMIN_PASSWORD ??= "e2e-Admin-pass-1";

const baseURL = `http://localhost:${process.env.E2E_PORT}`;
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

export default defineConfig({
  testDir: "tests/e2e",
  // The tests share one logger and some change global state (banner, login mode): run in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: { baseURL, launchOptions: chromium, trace: "off", screenshot: "only-on-failure" },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], launchOptions: chromium }, testIgnore: /kiosk\.spec|pg-outage\.spec/ },
    { name: "nojs", use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: false }, testMatch: /(signin|password|banner|nojs|gating)\.spec/ },
    { name: "kiosk", use: { ...devices["Desktop Chrome"], launchOptions: chromium, viewport: { width: 1920, height: 1080 } }, testMatch: /kiosk\.spec/ },
  ],
  webServer: {
    command: "node scripts/start.ts",
    url: `${baseURL}/signin`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: process.env.E2E_PORT,
      LOGGER_PORT: process.env.E2E_LOGGER_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      // The fixtures talk to the logger as the console does; on loopback the documented default
      // is accepted (npm start would otherwise generate one in DATA_DIR/.client-secret).
      LOGGER_CLIENT_SECRET: "loggia-console-secret",
      // Notification tests run their SMTP and webhook receivers on 127.0.0.1.
      NOTIFY_ALLOW: "127.0.0.1",
      ACCESS_TOKEN_TTL: "900",
    },
  },
});
