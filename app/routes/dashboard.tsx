import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { dashboardListAnswer } from "~/services/logger/schemas";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/dashboard";

// The dashboard list; widgets and the grid arrive with the Dashboards issue.
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "dashboard");
  const { List } = await stateOf(args.context).logger.rpc("WebUIAPI.List", {}, dashboardListAnswer);
  const wanted = args.url.searchParams.get("id");
  const current = (wanted ? List.find((d) => d.ID.toLowerCase() === wanted.toLowerCase()) : List.find((d) => d.IsDefault)) ?? null;
  return { dashboards: List, current, missing: wanted !== null && current === null };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { dashboards, current, missing } = loaderData;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{current ? current.Name : t("dashboard.title")}</h1>
      {missing && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {t("dashboard.notFound")}
        </p>
      )}
      {dashboards.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300" data-testid="dashboard-empty">
          {t("dashboard.empty")}
        </p>
      ) : (
        <ul className="flex flex-col gap-1">
          {dashboards.map((d) => (
            <li key={d.ID}>
              <Link to={`/${d.ID}`} className={`text-brand hover:underline ${d.IsDefault ? "font-bold" : ""}`}>
                {d.Name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.dashboard");
}
