import { loadConstants } from "~/services/constants.server";
import { requireFeature } from "~/services/guards.server";
import { patternKey } from "~/ui/dateTimeInput";
import { useRootData } from "~/ui/rootData";
import { pageTitle } from "~/ui/title";
import { useT } from "~/ui/useT";
import type { Route } from "./+types/help";

// Spec §2: Help exists only when the system is not a controller and the constants file has a
// help URL (requireFeature checks both). Issue 15 §9: it is an in-app page for operators' tasks;
// the help URL (documentation for deployers) is linked at its end.
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "help");
  return { moreUrl: loadConstants().urls.help ?? null };
}

const SECTIONS = [
  { id: "find", list: "items", keys: ["dashboard", "analytics", "devices", "alarming", "tools", "settings"], ordered: false },
  { id: "exports", list: "steps", keys: ["open", "choose", "format"], ordered: true },
  { id: "alarms", list: "items", keys: ["bell", "ack", "rules"], ordered: false },
  { id: "kiosk", list: "items", keys: ["open", "cycle", "stale"], ordered: false },
  { id: "states", list: "items", keys: ["live", "stale", "offline"], ordered: false },
] as const;

export default function Help({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const pattern = t(patternKey(useRootData()?.localeId ?? "en-US"));
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("help.title")}</h1>
      <p>{t("help.intro")}</p>
      <nav aria-label={t("help.title")} className="text-sm">
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#help-${s.id}`} className="text-brand underline">
                {t(`help.${s.id}.title`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {SECTIONS.map((s) => {
        const List = s.ordered ? "ol" : "ul";
        return (
          <section key={s.id} id={`help-${s.id}`} aria-labelledby={`help-${s.id}-title`} className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
            <h2 id={`help-${s.id}-title`} className="mb-3 text-lg font-semibold">
              {t(`help.${s.id}.title`)}
            </h2>
            <List className={`flex flex-col gap-2 pl-6 ${s.ordered ? "list-decimal" : "list-disc"}`}>
              {s.keys.map((k) => (
                <li key={k}>{t(`help.${s.id}.${s.list}.${k}`, { pattern })}</li>
              ))}
            </List>
          </section>
        );
      })}
      {loaderData.moreUrl && (
        <p className="text-sm">
          <a href={loaderData.moreUrl} className="text-brand underline" rel="noreferrer">
            {t("help.more")}
          </a>
        </p>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.help");
}
