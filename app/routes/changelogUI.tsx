import { useT } from "~/ui/useT";
import { changelogHtml, changelogSource } from "~/services/changelog.server";
import { getLocale } from "~/services/i18n.server";
import { requireFeature } from "~/services/guards.server";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/changelogUI";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "changelogUI");
  return { html: changelogHtml(changelogSource(getLocale(args.context))) };
}

export default function Changelog({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="sr-only">{t("nav.changelogUI")}</h1>
      <article
        data-testid="changelog"
        className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800 [&_a]:text-brand [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-900 [&_h1]:mb-4 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-6 [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:mb-2 [&_h3]:font-semibold [&_li]:mb-1 [&_p]:mb-3 [&_ul]:list-disc [&_ul]:pl-6"
        // Rendered by changelog.server.ts, which escapes raw HTML and unsafe links.
        dangerouslySetInnerHTML={{ __html: loaderData.html }}
      />
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.changelogUI");
}
