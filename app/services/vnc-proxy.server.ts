import { RouterContextProvider } from "react-router";
import { featureByKey } from "~/features";
import { getAuth } from "./auth-state.server";
import { loggerClientFor, requestState } from "./context.server";
import { gateFeature } from "./gating";
import { gateInputOf } from "./guards.server";
import { LoggerError } from "./logger/errors";
import { vncConnectAnswer, type VncConnectTarget } from "./logger/schemas";
import { sessionStorageFor } from "./session.server";

// The check behind the VNC WebSocket proxy (server/vnc-proxy.ts). It runs outside React
// Router's request pipeline, so it opens the same cookie session and asks the logger the same
// questions as the /vncview loader (signed in, feature gate of spec §6), then looks the target
// up by id at the logger. Exported from app/entry.server.tsx so the server can reach it in the
// build (build/server/index.js → entry.module).

export type VncUpgradeCheck =
  | { ok: true; target: VncConnectTarget; setCookie?: string }
  | { ok: false; status: 400 | 401 | 403 | 404 | 502 | 503; setCookie?: string };

export async function authorizeVncUpgrade(request: Request): Promise<VncUpgradeCheck> {
  const raw = new URL(request.url).searchParams.get("target") ?? "";
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) return { ok: false, status: 400 };

  const storage = sessionStorageFor(request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const before = JSON.stringify(session.data);
  const logger = loggerClientFor(session);
  const context = new RouterContextProvider();
  context.set(requestState, { session, logger });
  // Refreshed tokens must reach the browser (a reused refresh token ends the sign-in).
  const finish = async (check: VncUpgradeCheck): Promise<VncUpgradeCheck> =>
    JSON.stringify(session.data) === before ? check : { ...check, setCookie: await storage.commitSession(session) };

  try {
    const auth = await getAuth(context);
    if (auth.loginRequired && !auth.signedIn) return finish({ ok: false, status: 401 });
    if (auth.mustChangePassword) return finish({ ok: false, status: 403 });
    const gate = gateFeature(featureByKey("vncview"), gateInputOf(auth));
    if (gate !== "ok") return finish({ ok: false, status: gate === "absent" ? 404 : 403 });
    // The console's own client credentials: the logger hands a target's password to this server only.
    const target = await logger.rpc("VncAPI.Connect", { ID: id, ClientID: logger.config.clientId, ClientSecret: logger.config.clientSecret }, vncConnectAnswer);
    return finish({ ok: true, target });
  } catch (error) {
    if (error instanceof LoggerError) {
      const status = error.status === 404 ? 404 : error.status === 401 ? 401 : error.status === 403 ? 403 : 502;
      return finish({ ok: false, status });
    }
    // The client throws data(…, {status: 503}) when the logger is unreachable.
    const status = (error as { init?: { status?: number } } | null)?.init?.status;
    return { ok: false, status: status === 503 ? 503 : 502 };
  }
}
