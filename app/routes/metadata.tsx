import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { META_TYPES, metaEntrySchema, type MetaType } from "~/schemas/metadata";
import { keptData, stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getMetaData, getMetaKeys, listMeasurements, setMetaData } from "~/services/history.server";
import { getInstance } from "~/services/i18n.server";
import { failureOf } from "~/services/submission.server";
import { loadVariables } from "~/services/variables.server";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { MetaDataEditor } from "~/ui/history/MetaDataEditor";
import { pageTitle } from "~/ui/title";
import { useSeedText } from "~/ui/seedTexts";
import { listPageClass } from "~/ui/ListPage";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import type { Route } from "./+types/metadata";

const target = z.object({ type: z.enum(META_TYPES), id: z.string().min(1).max(64) });

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "metadata");
  const { logger } = stateOf(args.context);
  const [{ variables, devices }, measurements, all, keys] = await Promise.all([loadVariables(logger), listMeasurements(logger), getMetaData(logger), getMetaKeys(logger)]);
  const targets: Record<MetaType, { id: string; name: string }[]> = {
    measurement: measurements.map((m) => ({ id: m.ID, name: m.Name })),
    variable: variables.map((v) => ({ id: v.Id, name: v.deviceName ? `${v.deviceName} / ${v.Name}` : v.Name })),
    device: devices.map((d) => ({ id: d.ID, name: d.Name })),
  };
  // One <select> names the object as "type|id"; links use ?type=…&id=….
  const params = args.url.searchParams;
  const [type, id] = params.get("target")?.split("|") ?? [params.get("type"), params.get("id")];
  const chosen = target.safeParse({ type, id });
  const selected = chosen.success ? (targets[chosen.data.type].find((x) => x.id === chosen.data.id) ?? null) : null;
  const nameOf = (type: string, id: string) => targets[type as MetaType]?.find((x) => x.id === id)?.name ?? id;
  return keptData(args.context, {
    targets,
    selected: selected && chosen.success ? { type: chosen.data.type, ...selected, entries: all.filter((e) => e.Type === chosen.data.type && e.ID === chosen.data.id).map(({ Key, Value }) => ({ Key, Value })) } : null,
    all: all.map((e) => ({ ...e, name: nameOf(e.Type, e.ID) })),
    keys,
    /** A target was asked for (link, bookmark, or the form just posted) but does not exist. */
    missing: !selected && !!(params.get("target") || params.get("id")),
    canEdit: holds(auth, "ManageProject"),
  });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "metadata");
  requirePermission(auth, "ManageProject");
  const { t } = getInstance(args.context);
  const formData = await args.request.formData();
  readIntent(formData, ["meta"] as const);
  const which = target.safeParse({ type: formData.get("type"), id: formData.get("id") });
  if (!which.success) throw data({ reason: "bad-request" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: metaEntrySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const entry = submission.value;
  try {
    await setMetaData(stateOf(args.context).logger, which.data.type, which.data.id, [{ Key: entry.key, Value: entry.value }]);
  } catch (caught) {
    const error = failureOf(caught, t);
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status });
  }
  const text = entry.value ? t("history.metadata.saved") : t("history.metadata.removed", { key: entry.key });
  return redirectWithToast(args.context, `/metadata${args.url.search}`, { type: "success", text });
}

export default function MetaData({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const seed = useSeedText();
  const { targets, selected } = loaderData;
  return (
    <section className={listPageClass}>
      <h1 className="text-2xl font-semibold">{t("nav.metadata")}</h1>
      <Form method="get" className="flex flex-wrap items-end gap-2" data-testid="metadata-target">
        <label className="flex max-w-full min-w-0 flex-col gap-1 text-sm font-medium">
          {t("history.metadata.object")}
          <select name="target" defaultValue={selected ? `${selected.type}|${selected.id}` : ""} className={inputClass}>
            <option value="">—</option>
            {META_TYPES.map((ty) => (
              <optgroup key={ty} label={t(`history.metadata.types.${ty}`)}>
                {targets[ty].map((x) => (
                  <option key={x.id} value={`${ty}|${x.id}`}>
                    {x.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          {t("history.metadata.open")}
        </button>
      </Form>
      {selected ? (
        <article className="flex flex-col gap-2 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800">
          <h2 className="text-lg font-semibold">
            {t(`history.metadata.types.${selected.type}`)}: {selected.name}
          </h2>
          <MetaDataEditor entries={selected.entries} keys={loaderData.keys} canEdit={loaderData.canEdit} hidden={{ type: selected.type, id: selected.id }} lastResult={actionData?.result} />
        </article>
      ) : loaderData.missing ? (
        // The object went away (perhaps while its form was being sent): say so, with the logger's answer.
        <div className="flex flex-col gap-2">
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
            {t("history.metadata.gone")}
          </p>
          <FormErrors errors={actionData?.result?.error?.[""] ?? undefined} />
        </div>
      ) : (
        <p className="text-slate-600 dark:text-slate-300">{t("history.metadata.pick")}</p>
      )}
      <section className="flex min-w-0 flex-col gap-2" aria-labelledby="metadata-all-title">
        <h2 id="metadata-all-title" className="font-semibold">
          {t("history.metadata.all")}
        </h2>
        <DataTable label={t("history.metadata.all")} testId="metadata-all" columns={[{ label: t("history.metadata.object") }, { label: t("history.metadata.key") }, { label: t("history.metadata.value") }]}>
          {loaderData.all.map((e) => (
            <Row key={`${e.Type}/${e.ID}/${e.Key}`}>
              <Cell>
                <Link to={`?type=${e.Type}&id=${encodeURIComponent(e.ID)}`} className="text-brand hover:underline">
                  {t(`history.metadata.types.${e.Type}`)}: {e.name}
                </Link>
              </Cell>
              <Cell className="font-medium">{seed(e.Key)}</Cell>
              <Cell className="break-words">{seed(e.Value)}</Cell>
            </Row>
          ))}
        </DataTable>
      </section>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.metadata");
}
