import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSAL_CODES } from "../../../logger/http/errors.ts";
import en from "~/locales/en";
import itTexts from "~/locales/it";
import { LoggerClient } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { emptyAnswer } from "~/services/logger/schemas";
import { refusalTextsOf } from "~/services/refusalTexts.server";
import { loggerReply } from "~/services/submission.server";
import { ADMIN_PASSWORD, CLIENT, start, type TestLogger } from "../logger/helpers";

// Issue 28 §5: the logger's refusals carry a code the console says in the reader's language;
// the logger's Description stays the fallback (spec §8).

async function translator(lng: "en" | "it") {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { en: { translation: en }, it: { translation: itTexts } }, interpolation: { escapeValue: false } });
  return i18n;
}

describe("refusal texts", () => {
  it("exist in both languages for every code the logger sends", () => {
    const missing = REFUSAL_CODES.flatMap((code) => (["en", "it"] as const).filter((lng) => !((lng === "en" ? en : itTexts) as { refusals: Record<string, string> }).refusals[code]).map((lng) => `${lng}:${code}`));
    expect(missing).toEqual([]);
  });

  it("fill in the refusal's arguments, pick the variant its action names, and fall back to the Description", async () => {
    const say = refusalTextsOf(await translator("it"));
    expect(say({ Code: "roleHeld", Args: { name: "Operatore", users: "alice, bob" } }, "Role Operatore is still held by: alice, bob")).toBe("Il ruolo Operatore è ancora assegnato a: alice, bob");
    expect(say({ Code: "lastAdmin", Args: { user: "admin", role: "Administrator", action: "moved" } }, "x")).toMatch(/non può passare a un altro ruolo/);
    expect(say({ Code: "somethingNew", Args: {} }, "Something new went wrong")).toBe("Something new went wrong");
  });
});

describe("a coded refusal from the logger", () => {
  let logger: TestLogger;
  beforeAll(async () => {
    logger = await start({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(() => logger.stop());

  async function refusedAs(lng: "en" | "it" | null): Promise<LoggerError> {
    let pair: { access_token: string; refresh_token: string } | null = null;
    const c = new LoggerClient({ baseUrl: logger.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 2000 }, { get: () => ({ accessToken: pair?.access_token, refreshToken: pair?.refresh_token }), set: (p) => (pair = p) });
    pair = await c.passwordGrant("admin", ADMIN_PASSWORD);
    if (lng) c.refusalTexts = refusalTextsOf(await translator(lng));
    return c.rpc("GI.system/UserManagementAPI.RemoveUser", { ID: 1 }, emptyAnswer).then(
      () => Promise.reject(new Error("not refused")),
      (e: LoggerError) => e,
    );
  }

  it("is said in the reader's language; its Description stays for matching", async () => {
    const it_ = await refusedAs("it");
    expect(it_).toBeInstanceOf(LoggerError);
    expect(it_.message).toBe("Non puoi eliminare il tuo account");
    expect(it_.description).toBe("You cannot remove your own account");
    expect(it_.refusal).toEqual({ Code: "ownAccount", Args: {} });
    // Without a translator (or before one is set) it is the logger's own words, as before; in
    // English the console says exactly what the logger says.
    expect((await refusedAs(null)).message).toBe("You cannot remove your own account");
    expect((await refusedAs("en")).message).toBe("You cannot remove your own account");
  });

  it("lands next to its field by the logger's words whatever the language", async () => {
    const error = await refusedAs("it");
    const submission = { reply: (o: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) => o } as never;
    const { result } = loggerReply(submission, error, { conflict: "c", fields: { account: /own account/ } });
    expect(result).toEqual({ fieldErrors: { account: ["Non puoi eliminare il tuo account"] }, hideFields: undefined });
  });
});
