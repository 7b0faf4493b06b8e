import { Link } from "react-router";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";
import { isEmptyDiff, type VersionDiff } from "./versionDiff";

// A dashboard's history in the Dashboard Manager (issue 28 §6): every kept version with its time
// and author, what a version changed, and a confirmed restore — links and a form, so it works
// without JavaScript (page states ?history, &diff=N, &restore=N).

const PATH = "/dashboardManager";

export interface HistoryData {
  current: number;
  kept: number;
  versions: { Version: number; Name: string; Updated: string; Author: string }[];
  /** The version whose changes are shown, against the kept version before it (null: the first kept). */
  diff: { version: number; against: number | null; changes: VersionDiff } | null;
  /** The version to restore, and what restoring it changes in the current dashboard. */
  restore: { version: number; changes: VersionDiff } | null;
}

export function VersionHistory({ dashboardId, history }: { dashboardId: string; history: HistoryData }) {
  const t = useT();
  const { dateTime } = useFormatters();
  const base = `${PATH}?edit=${dashboardId}&history`;
  return (
    <section className="flex flex-col gap-3" aria-labelledby="history-title" data-testid="dashboard-history">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="history-title" className="font-semibold">
          {t("dashboardManager.history.title")}
        </h3>
        <Link to={`${PATH}?edit=${dashboardId}`} preventScrollReset className="text-brand hover:underline">
          {t("dashboardManager.history.close")}
        </Link>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("dashboardManager.history.hint", { count: history.kept })}</p>
      {history.restore && (
        <ConfirmPanel
          title={t("dashboardManager.history.restoreTitle", { version: history.restore.version })}
          fields={{ intent: "restore", id: dashboardId, version: String(history.restore.version), current: String(history.current) }}
          message={t("dashboardManager.history.restoreConfirm", { version: history.restore.version })}
          confirmLabel={t("dashboardManager.history.restore")}
          cancelHref={base}
        >
          <p className="mb-1">{t("dashboardManager.history.restoreChanges")}</p>
          <DiffList changes={history.restore.changes} />
        </ConfirmPanel>
      )}
      {history.diff && (
        <div className="rounded-md border border-slate-200 p-3 dark:border-slate-700" data-testid="version-diff">
          <h4 className="mb-2 text-sm font-semibold">
            {history.diff.against === null ? t("dashboardManager.history.firstKept", { version: history.diff.version }) : t("dashboardManager.history.diffTitle", { version: history.diff.version, against: history.diff.against })}
          </h4>
          <DiffList changes={history.diff.changes} />
        </div>
      )}
      <DataTable
        label={t("dashboardManager.history.title")}
        testId="versions-table"
        columns={[{ label: t("dashboardManager.history.version") }, { label: t("dashboardManager.history.saved") }, { label: t("dashboardManager.history.author") }, { label: t("dashboardManager.manager.name") }, { label: t("common.actions"), srOnly: true }]}
      >
        {history.versions.map((v) => (
          <Row key={v.Version} data-version={v.Version}>
            <th scope="row" className="px-3 py-2 text-left font-medium tabular-nums">
              {v.Version}
              {v.Version === history.current && <span className="ml-2 rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">{t("dashboardManager.history.current")}</span>}
            </th>
            <Cell className="whitespace-nowrap tabular-nums">{dateTime(v.Updated)}</Cell>
            <Cell>{v.Author || "—"}</Cell>
            <Cell>{v.Name}</Cell>
            <Cell>
              <span className="flex gap-3">
                <Link to={`${base}&diff=${v.Version}`} preventScrollReset className="text-brand hover:underline" aria-label={t("dashboardManager.history.changesOf", { version: v.Version })}>
                  {t("dashboardManager.history.changes")}
                </Link>
                {v.Version !== history.current && (
                  <Link to={`${base}&restore=${v.Version}`} preventScrollReset className="text-brand hover:underline" aria-label={t("dashboardManager.history.restoreOf", { version: v.Version })}>
                    {t("dashboardManager.history.restore")}
                  </Link>
                )}
              </span>
            </Cell>
          </Row>
        ))}
      </DataTable>
    </section>
  );
}

/** The changes as a list a person reads. */
function DiffList({ changes }: { changes: VersionDiff }) {
  const t = useT();
  if (isEmptyDiff(changes)) return <p className="text-sm">{t("dashboardManager.history.noChanges")}</p>;
  const kind = (type: string) => t(`dashboards.types.${type}`);
  const name = (w: { label: string; type: string }) => (w.label ? `${w.label} (${kind(w.type)})` : kind(w.type));
  return (
    <ul className="list-disc pl-5 text-sm" data-testid="diff-list">
      {changes.settings.map((s) => (
        <li key={s.key} data-change="setting">
          {t("dashboardManager.history.setting", { setting: t(`dashboardManager.history.settings.${s.key}`), from: s.from, to: s.to })}
        </li>
      ))}
      {changes.added.map((w) => (
        <li key={`a-${w.id}`} data-change="added">
          {t("dashboardManager.history.added", { widget: name(w) })}
        </li>
      ))}
      {changes.removed.map((w) => (
        <li key={`r-${w.id}`} data-change="removed">
          {t("dashboardManager.history.removed", { widget: name(w) })}
        </li>
      ))}
      {changes.changed.map((w) => (
        <li key={`c-${w.id}`} data-change="changed">
          {t("dashboardManager.history.changed", { widget: name(w), parts: w.parts.map((p) => t(`dashboardManager.history.parts.${p}`)).join(", ") })}
        </li>
      ))}
    </ul>
  );
}
