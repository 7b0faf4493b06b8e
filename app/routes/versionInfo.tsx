import { useT } from "~/ui/useT";
import pkg from "../../package.json";
import { getAuth } from "~/services/auth-state.server";
import { keptData, stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { versionInfoAnswer, versionInformationAnswer } from "~/services/logger/schemas";
import { useFormatters } from "~/ui/format";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/versionInfo";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "versionInfo");
  const { logger } = stateOf(args.context);
  const auth = await getAuth(args.context);
  const [system, components] = await Promise.all([
    logger.readFreshRpc("system.getVersionInfo", {}, versionInfoAnswer),
    logger.readFreshRpc(`ConfigAPI.GetVersionInformation?_dc=${Date.now()}`, {}, versionInformationAnswer),
  ]);
  return keptData(args.context, {
    console: { name: "Loggia Console", version: pkg.version },
    system: system.Value,
    controller: auth.controller,
    components: components.VersionInformation,
  });
}

function version(v: { Major?: number; Minor?: number; Build?: number }) {
  return [v.Major, v.Minor, v.Build].filter((x) => x !== undefined).join(".");
}

export default function VersionInfo({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { dateTime } = useFormatters();
  const { system, components } = loaderData;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("about.title")}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800">
        <dt className="font-medium">{t("about.console")}</dt>
        <dd data-testid="console-version">{loaderData.console.version}</dd>
        <dt className="font-medium">{t("about.system")}</dt>
        <dd data-testid="system-name">
          {system.Name} {version(system)}
        </dd>
        <dt className="font-medium">{t("about.kind")}</dt>
        <dd>{loaderData.controller ? t("about.controller") : t("about.service")}</dd>
        {system.BuildDateTime && (
          <>
            <dt className="font-medium">{t("about.built")}</dt>
            <dd>{dateTime(system.BuildDateTime)}</dd>
          </>
        )}
      </dl>
      <table className="w-full overflow-hidden rounded-lg bg-white text-left text-sm shadow-sm dark:bg-slate-800">
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            <th className="px-4 py-2">{t("about.component")}</th>
            <th className="px-4 py-2">{t("about.version")}</th>
            <th className="px-4 py-2">{t("about.built")}</th>
          </tr>
        </thead>
        <tbody>
          {components.map((c) => (
            <tr key={c.Name} className="border-t border-slate-100 dark:border-slate-700">
              <td className="px-4 py-2">{c.Name}</td>
              <td className="px-4 py-2">{version(c)}</td>
              <td className="px-4 py-2">{c.BuildDateTime ? dateTime(c.BuildDateTime) : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.versionInfo");
}
