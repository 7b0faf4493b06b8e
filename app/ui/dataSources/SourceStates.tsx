import { Link } from "react-router";
import type { SourceState } from "~/services/logger/sourceSchemas";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";
import { StateBadge } from "./StateBadge";

/**
 * Project State's "Data sources" section (issue 16 §2): per source its connection state with the
 * last error, since when, the time of its last value in the user's zone, and values and errors
 * counted. Server-rendered; the page's polling refreshes it with JavaScript.
 */
export function SourceStates({ states, manageHref }: { states: SourceState[]; manageHref?: string }) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  return (
    <section className="flex min-w-0 flex-col gap-3" aria-labelledby="source-states-title" data-testid="source-states">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="source-states-title" className="text-lg font-semibold">
          {t("dataSources.section.title")}
        </h2>
        {manageHref && (
          <Link to={manageHref} className="text-sm text-brand underline">
            {t("dataSources.section.manage")}
          </Link>
        )}
      </div>
      <DataTable
        label={t("dataSources.section.title")}
        columns={[
          { label: t("dataSources.section.source") },
          { label: t("dataSources.protocol") },
          { label: t("dataSources.state") },
          { label: t("dataSources.lastValue") },
          { label: t("dataSources.counts") },
        ]}
        empty={states.length === 0 ? t("dataSources.section.none") : undefined}
        emptyTestId="source-states-empty"
      >
        {states.map((s) => (
          <Row key={s.ID} data-testid="source-state-row" data-source={s.Name} data-state={s.State}>
            <th scope="row" className={`${cellClass} font-medium`}>
              {s.Name}
            </th>
            <Cell>{t(`dataSources.protocol_${s.Protocol}`)}</Cell>
            <Cell>
              <StateBadge state={s} />
              <span className="text-xs text-slate-600 dark:text-slate-400">{t("dataSources.section.since", { when: dateTime(s.Since) })}</span>
            </Cell>
            <Cell className="whitespace-nowrap" data-testid="source-last-value">
              {s.LastValueTime === null ? "—" : dateTime(s.LastValueTime)}
            </Cell>
            <Cell className="whitespace-nowrap">{t("dataSources.countsValue", { values: number(s.Values), errors: number(s.Errors) })}</Cell>
          </Row>
        ))}
      </DataTable>
    </section>
  );
}
