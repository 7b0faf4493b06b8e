import { useTranslation } from "react-i18next";
import { stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { versionInfoAnswer } from "~/services/logger/schemas";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/devices";

// Project State: the system the console manages. Devices, measurements and start/stop join
// this screen with the live data core (issue 4); until then it shows the logger itself.
export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "devices");
  const { Value } = await stateOf(args.context).logger.rpc("system.getVersionInfo", {}, versionInfoAnswer);
  return { name: Value.Name, version: [Value.Major, Value.Minor, Value.Build].filter((x) => x !== undefined).join("."), controller: auth.controller, loginRequired: auth.loginRequired };
}

export default function Devices({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("nav.devices")}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="system-state">
        <dt className="font-medium">{t("about.system")}</dt>
        <dd>
          {loaderData.name} {loaderData.version}
        </dd>
        <dt className="font-medium">{t("about.kind")}</dt>
        <dd>{loaderData.controller ? t("about.controller") : t("about.service")}</dd>
        <dt className="font-medium">{t("devices.connection")}</dt>
        <dd className="flex items-center gap-2">
          <span className="h-2.5 w-2.5 rounded-full bg-green-500" aria-hidden="true" />
          {t("devices.connected")}
        </dd>
        <dt className="font-medium">{t("devices.login")}</dt>
        <dd>{loaderData.loginRequired ? t("devices.loginRequired") : t("devices.loginNotRequired")}</dd>
      </dl>
      <p className="text-slate-600 dark:text-slate-300">{t("devices.noDevices")}</p>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.devices");
}
