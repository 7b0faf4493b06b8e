import { useT } from "~/ui/useT";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { keptData, stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { featureByKey } from "~/features";
import { sourceStates } from "~/services/dataSources.server";
import { gateFeature } from "~/services/gating";
import { gateInputOf, holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { devicesAnswer, emptyAnswer, projectStateAnswer, type Device } from "~/services/logger/schemas";
import { failureOf } from "~/services/submission.server";
import { ConfirmStep } from "~/ui/ConfirmAction";
import { SourceStates } from "~/ui/dataSources/SourceStates";
import { StoreCard } from "~/ui/StoreCard";
import { FieldError } from "~/ui/FieldError";
import { buttonClass, inputClass } from "~/ui/FormField";
import { FreshnessBadge } from "~/ui/FreshnessBadge";
import { freshnessOf, NOT_LIVE_CLASS, periodMsOf } from "~/ui/live/freshness";
import { usePolling } from "~/ui/usePolling";
import { useFormatters } from "~/ui/format";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/devices";

const INTENTS = ["projectStart", "projectStop", "measurementStart", "measurementStop"] as const;
const measurementName = z.string().trim().min(1, "live.validation.measurementName").max(128, "live.validation.measurementName");

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "devices");
  const { logger } = stateOf(args.context);
  // Never from the cache; with the logger away the last answers, marked by the shell's strip (issue 26 §2).
  const [{ Devices }, { State }, sources] = await Promise.all([
    logger.readFreshRpc("DeviceAPI.GetDevices", {}, devicesAnswer),
    logger.readFreshRpc("ProjectAPI.GetState", {}, projectStateAnswer),
    sourceStates(logger),
  ]);
  const manageSources = gateFeature(featureByKey("dataSources"), gateInputOf(auth)) === "ok";
  return keptData(args.context, { devices: Devices, state: State, sources, manageSources, canManage: holds(auth, "ManageProject"), now: Date.now() });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "devices");
  requirePermission(auth, "ManageProject");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const calls = {
    projectStart: ["ProjectAPI.Start", {}, "live.project.started"],
    projectStop: ["ProjectAPI.Stop", {}, "live.project.stopped"],
    measurementStart: ["MeasurementAPI.Start", {}, "live.measurement.started"],
    measurementStop: ["MeasurementAPI.Stop", {}, "live.measurement.stopped"],
  } as const;
  const [method, , done] = calls[intent];
  const control = intent.startsWith("project") ? "project" : "measurement";
  // Starting or stopping acquisition is asked first (issue 15 §2), and so is ending a recording run
  // (issue 26 §5): the first post only answers what would change.
  if ((control === "project" || intent === "measurementStop") && formData.get("confirm") !== "yes") return { confirm: intent, nonce: crypto.randomUUID() } as const;
  let params: object = {};
  if (intent === "measurementStart") {
    const name = measurementName.safeParse(formData.get("name") ?? "");
    if (!name.success) return data({ control, error: t(name.error.issues[0].message), name: String(formData.get("name") ?? "") }, { status: 400 });
    params = { Name: name.data };
  }
  try {
    await logger.rpc(method, params, emptyAnswer.loose());
  } catch (caught) {
    const error = failureOf(caught, t);
    return data({ control, error: error.message, name: String(formData.get("name") ?? "") }, { status: error.status });
  }
  return redirectWithToast(args.context, "/devices", { type: "success", text: t(done) });
}

export default function Devices({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { dateTime } = useFormatters();
  const { devices, state, sources, manageSources, canManage, now } = loaderData;
  const busy = useNavigation().state === "submitting";
  const confirming = actionData && "confirm" in actionData ? actionData : null;
  const failed = actionData && "error" in actionData ? actionData : null;
  // With JavaScript the snapshot is refreshed, so heartbeats and the running state stay current.
  usePolling(5000, !confirming);
  const running = t("live.project.running");
  const stopped = t("live.project.stoppedState");
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("nav.devices")}</h1>
      {confirming && confirming.confirm === "measurementStop" && (
        <ConfirmStep
          nonce={confirming.nonce}
          title={t("operator.confirm.measurementTitle")}
          message={state.Measurement ? t("operator.confirm.measurement", { name: state.Measurement.Name, since: dateTime(state.Measurement.Start) }) : t("operator.confirm.noMeasurement")}
          confirmLabel={t("live.measurement.stop")}
          fields={{ intent: "measurementStop" }}
          cancelHref="/devices"
        />
      )}
      {confirming && confirming.confirm !== "measurementStop" && (
        <ConfirmStep
          nonce={confirming.nonce}
          title={t(confirming.confirm === "projectStop" ? "operator.confirm.stopTitle" : "operator.confirm.startTitle")}
          message={t("operator.confirm.project", { name: state.ProjectName, from: state.Running ? running : stopped, to: confirming.confirm === "projectStop" ? stopped : running })}
          confirmLabel={confirming.confirm === "projectStop" ? t("live.project.stop") : t("live.project.start")}
          fields={{ intent: confirming.confirm }}
          cancelHref="/devices"
        />
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <div className="rounded-lg bg-white p-5 shadow-sm dark:bg-slate-800" data-testid="project-card">
          <h2 className="mb-2 text-lg font-semibold">{t("live.project.title")}</h2>
          <p className="mb-1">{state.ProjectName}</p>
          <p className="mb-4 flex items-center gap-2" data-testid="project-running">
            <Dot on={state.Running} />
            {state.Running ? running : stopped}
            {state.Since ? <span className="text-sm text-slate-500 dark:text-slate-400">· {t("live.since", { when: dateTime(state.Since) })}</span> : null}
          </p>
          {canManage && (
            <Form method="post">
              <input type="hidden" name="intent" value={state.Running ? "projectStop" : "projectStart"} />
              <button type="submit" className={buttonClass} disabled={busy} aria-describedby={failed?.control === "project" ? "project-error" : undefined} autoFocus={failed?.control === "project"}>
                {state.Running ? t("live.project.stop") : t("live.project.start")}
              </button>
              <FieldError id="project-error" error={failed?.control === "project" ? failed.error : undefined} />
            </Form>
          )}
        </div>
        <div className="rounded-lg bg-white p-5 shadow-sm dark:bg-slate-800" data-testid="measurement-card">
          <h2 className="mb-2 text-lg font-semibold">{t("live.measurement.title")}</h2>
          {state.Measurement ? (
            <>
              <p className="mb-4 flex items-center gap-2">
                <Dot on />
                <strong>{state.Measurement.Name}</strong>
                <span className="text-sm text-slate-500 dark:text-slate-400">· {t("live.since", { when: dateTime(state.Measurement.Start) })}</span>
              </p>
              {canManage && (
                <Form method="post">
                  <input type="hidden" name="intent" value="measurementStop" />
                  <button type="submit" className={buttonClass} disabled={busy} aria-describedby={failed?.control === "measurement" ? "measurement-error" : undefined}>
                    {t("live.measurement.stop")}
                  </button>
                  <FieldError id="measurement-error" error={failed?.control === "measurement" ? failed.error : undefined} />
                </Form>
              )}
            </>
          ) : (
            <>
              <p className="mb-4 text-slate-600 dark:text-slate-300">{t("live.measurement.none")}</p>
              {canManage && (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="measurementStart" />
                  <label className="flex flex-col gap-1 text-sm font-medium">
                    {t("live.measurement.name")}
                    <input
                      name="name"
                      defaultValue={failed?.name ?? ""}
                      maxLength={128}
                      className={inputClass}
                      aria-invalid={failed?.control === "measurement" || undefined}
                      aria-describedby={failed?.control === "measurement" ? "measurement-error" : undefined}
                      autoFocus={failed?.control === "measurement"}
                    />
                  </label>
                  <button type="submit" className={buttonClass} disabled={busy}>
                    {t("live.measurement.start")}
                  </button>
                  <FieldError id="measurement-error" error={failed?.control === "measurement" ? failed.error : undefined} />
                </Form>
              )}
            </>
          )}
        </div>
      </div>
      {state.Store && <StoreCard store={state.Store} />}
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
        <table className="w-full text-left text-sm" data-testid="devices-table">
          <thead className="bg-slate-100 dark:bg-slate-700">
            <tr>
              {["name", "state", "heartbeat", "type", "firmware", "ip", "rate", "modules"].map((c) => (
                <th key={c} scope="col" className="px-4 py-2">
                  {t(`live.devices.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {devices.length === 0 && (
              <tr>
                <td colSpan={8} className="px-4 py-6 text-center text-slate-500">
                  {t("devices.noDevices")}
                </td>
              </tr>
            )}
            {devices.map((d) => (
              <DeviceRow key={d.ID} device={d} now={now} />
            ))}
          </tbody>
        </table>
      </div>
      <SourceStates states={sources} manageHref={manageSources ? "/dataSources" : undefined} />
    </section>
  );
}

/** A device is as current as its heartbeat: stale after 3 sample periods, offline when disconnected. */
function DeviceRow({ device: d, now }: { device: Device; now: number }) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  const beat = d.LastHeartbeat == null ? null : typeof d.LastHeartbeat === "number" ? d.LastHeartbeat : Date.parse(d.LastHeartbeat);
  const freshness = freshnessOf(beat, periodMsOf(d.SampleRateHz), now, d.Connected);
  const notLive = freshness === "live" ? "" : NOT_LIVE_CLASS;
  return (
    <tr className="border-t border-slate-100 dark:border-slate-700" data-device={d.Name} data-freshness={freshness}>
      <td className="px-4 py-2 font-medium">
        {d.Name}
        {d.Serial && <div className="text-xs text-slate-500 dark:text-slate-400">{t("live.devices.serial", { serial: d.Serial })}</div>}
      </td>
      <td className={`px-4 py-2 ${notLive}`}>
        <span className="flex items-center gap-2" data-testid="device-state">
          <Dot on={d.Connected} />
          {/* One word per device state on every screen (issue 28 §7): the Map's. */}
          {d.Connected ? t("deviceState.online") : t("deviceState.offline")}
        </span>
      </td>
      <td className="px-4 py-2">
        <span className={notLive}>{d.LastHeartbeat ? dateTime(d.LastHeartbeat) : "—"}</span>
        <FreshnessBadge freshness={freshness} ageMs={beat === null ? null : now - beat} />
      </td>
      <td className="px-4 py-2">{d.Type}</td>
      <td className="px-4 py-2">{d.Firmware}</td>
      <td className="px-4 py-2 font-mono text-xs">{d.IPAddress}</td>
      <td className="px-4 py-2">{d.SampleRateHz !== undefined ? `${number(d.SampleRateHz)} Hz` : "—"}</td>
      <td className="px-4 py-2">{d.Modules.map((m) => m.Name).join(", ")}</td>
    </tr>
  );
}

function Dot({ on }: { on: boolean }) {
  return <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${on ? "bg-green-500" : "bg-slate-400"}`} />;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.devices");
}
