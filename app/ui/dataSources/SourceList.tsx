import type { ComponentProps } from "react";
import type { DataSourceView, SourceState } from "~/services/logger/sourceSchemas";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";
import { StateBadge } from "./StateBadge";

/** Every data source with its connection state; the rows link to the page states that edit them. */
export function SourceList({
  sources,
  states,
  hrefOf,
  removeFormOf,
}: {
  sources: DataSourceView[];
  states: SourceState[];
  hrefOf: (state: "edit" | "browse" | "remove", id: number) => string;
  removeFormOf: (source: DataSourceView) => Omit<ComponentProps<typeof RowRemove>, "label" | "title" | "confirmHref">;
}) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  return (
    <DataTable
      label={t("dataSources.listTitle")}
      testId="sources-table"
      columns={[
        { label: t("dataSources.name") },
        { label: t("dataSources.protocol") },
        { label: t("dataSources.enabled") },
        { label: t("dataSources.state") },
        { label: t("dataSources.lastValue") },
        { label: t("dataSources.counts") },
        { label: t("common.actions"), srOnly: true },
      ]}
      empty={sources.length === 0 ? t("dataSources.none") : undefined}
      emptyTestId="sources-empty"
    >
      {sources.map((s) => {
        const state = states.find((x) => x.ID === s.ID);
        return (
          <Row key={s.ID} data-testid="source-row" data-source={s.Name} data-state={state?.State ?? ""}>
            <th scope="row" className={`${cellClass} font-medium`}>
              {s.Name}
              <div className="text-xs font-normal text-slate-600 dark:text-slate-400">{t("dataSources.variableCount", { count: s.Variables.length })}</div>
            </th>
            <Cell>{t(`dataSources.protocol_${s.Protocol}`)}</Cell>
            <Cell>{s.Enabled ? t("common.yes") : t("common.no")}</Cell>
            <Cell>{state ? <StateBadge state={state} /> : "—"}</Cell>
            <Cell className="whitespace-nowrap">{state?.LastValueTime ? dateTime(state.LastValueTime) : "—"}</Cell>
            <Cell className="whitespace-nowrap">{state ? t("dataSources.countsValue", { values: number(state.Values), errors: number(state.Errors) }) : "—"}</Cell>
            <Cell>
              <RowActions className="justify-start whitespace-nowrap">
                <RowLink to={hrefOf("edit", s.ID)} label={t("dataSources.editNamed", { name: s.Name })}>
                  {t("common.edit")}
                </RowLink>
                {s.Protocol === "opcua" && (
                  <RowLink to={hrefOf("browse", s.ID)} label={t("dataSources.browse.named", { name: s.Name })}>
                    {t("dataSources.browse.action")}
                  </RowLink>
                )}
                <RowRemove label={t("common.remove")} title={t("dataSources.removeTitle")} confirmHref={hrefOf("remove", s.ID)} {...removeFormOf(s)} />
              </RowActions>
            </Cell>
          </Row>
        );
      })}
    </DataTable>
  );
}
