import { createCookie } from "react-router";
import { sealer } from "../../app/services/sealedCookie.server.ts";

/**
 * The value of a `loggia_session` cookie holding `data`, sealed with `secrets` as the console
 * seals it: what a cookie kept from earlier (or copied) would be. Tests use it to present
 * sessions with dates of their choosing.
 */
export async function sealedSessionCookie(secrets: string[], data: Record<string, unknown>): Promise<string> {
  const cookie = createCookie("loggia_session", { path: "/" });
  const header = (await cookie.serialize(await sealer(secrets).seal(data))).split(";")[0]!;
  return header.slice(header.indexOf("=") + 1);
}
