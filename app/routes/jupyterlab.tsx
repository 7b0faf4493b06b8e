import { useT } from "~/ui/useT";
import { Link } from "react-router";
import { holds, requireFeature } from "~/services/guards.server";
import { jupyterAnswers } from "~/services/jupyter.server";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/jupyterlab";

// The address comes only from Global Settings (an administrator's choice), never from the page.
export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "jupyterlab");
  const url = auth.settings?.JupyterUrl?.trim() || null;
  const state = !url ? "unset" : (await jupyterAnswers(url)) ? "ok" : "unreachable";
  return { url, state, canConfigure: holds(auth, "ManageGlobalSettings") } as const;
}

export default function JupyterLab({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { url, state, canConfigure } = loaderData;
  return (
    <section className="flex h-full flex-col gap-4" data-wide>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.jupyterlab")}</h1>
        {url && state === "ok" && (
          <a href={url} target="_blank" rel="noopener noreferrer" className="text-brand hover:underline">
            {t("jupyter.openTab")}
          </a>
        )}
      </div>
      {state === "unset" && (
        <div role="status" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800" data-testid="jupyter-message">
          <p>{t("jupyter.unset")}</p>
          {canConfigure && (
            <p className="mt-2">
              <Link to="/globalSettings" className="text-brand hover:underline">
                {t("jupyter.configure")}
              </Link>
            </p>
          )}
        </div>
      )}
      {state === "unreachable" && (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-6 text-red-900" data-testid="jupyter-message">
          <p>{t("jupyter.unreachable", { url })}</p>
          <p className="mt-2">
            <Link to="/jupyterlab" className="underline" reloadDocument>
              {t("jupyter.retry")}
            </Link>
          </p>
        </div>
      )}
      {state === "ok" && url && <iframe src={url} title={t("nav.jupyterlab")} className="min-h-[75vh] w-full flex-1 rounded-lg border border-slate-200 bg-white dark:border-slate-700" data-testid="jupyter-frame" />}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.jupyterlab");
}
