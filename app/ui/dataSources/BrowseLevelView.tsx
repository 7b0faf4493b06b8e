import type { ReactNode } from "react";
import type { BrowseNode } from "~/services/logger/sourceSchemas";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { useT } from "~/ui/useT";
import type { BrowseLevel } from "./BrowsePanel";
import { problemMessage } from "./problem";

// One level of an OPC UA server's address space, drawn the same for a saved source (links and
// row posts, BrowsePanel) and for the form being edited (submit buttons of the form,
// DraftBrowse): the two differ only in how a step is taken, which the callers render.

/** The path from the Objects folder; `step(i, name)` draws the way back to level i. */
export function BrowsePath({ trail, step }: { trail: BrowseLevel["trail"]; step: (i: number, name: string) => ReactNode }) {
  const t = useT();
  return (
    <nav aria-label={t("dataSources.browse.path")}>
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {[{ nodeId: "", name: t("dataSources.browse.root") }, ...trail].map((s, i, all) => (
          <li key={`${i}-${s.nodeId}`} className="flex items-center gap-1">
            {i > 0 && <span aria-hidden="true">/</span>}
            {i === all.length - 1 ? (
              <span aria-current="location" className="font-semibold">
                {s.name}
              </span>
            ) : (
              step(i, s.name)
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The level's nodes, or the logger's refusal with `retry`; `actions(n)` fills a node's last cell. */
export function BrowseNodes({ level, retry, actions }: { level: BrowseLevel; retry: ReactNode; actions: (n: BrowseNode) => ReactNode }) {
  const t = useT();
  const { nodes, error } = level;
  if (error) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="browse-error">
        {t("dataSources.browse.failed", { error: problemMessage(t, error.problem, error.text) })} {retry}
      </p>
    );
  }
  return (
    <DataTable
      label={t("dataSources.browse.nodes")}
      testId="browse-nodes"
      columns={[{ label: t("dataSources.browse.name") }, { label: t("dataSources.browse.class") }, { label: t("dataSources.browse.dataType") }, { label: t("dataSources.var.Unit") }, { label: t("dataSources.browse.range") }, { label: t("common.actions"), srOnly: true }]}
      empty={nodes.length === 0 ? t("dataSources.browse.empty") : undefined}
    >
      {nodes.map((n) => (
        <Row key={n.NodeId} data-testid="browse-node" data-node={n.NodeId}>
          <th scope="row" className={`${cellClass} font-medium`}>
            {n.DisplayName}
            <div className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">{n.NodeId}</div>
          </th>
          <Cell>{n.NodeClass}</Cell>
          <Cell>{n.DataType ?? "—"}</Cell>
          <Cell>{n.Unit || "—"}</Cell>
          <Cell className="whitespace-nowrap">{n.RangeMin !== undefined && n.RangeMax !== undefined ? `${n.RangeMin} … ${n.RangeMax}` : "—"}</Cell>
          <Cell>{actions(n)}</Cell>
        </Row>
      ))}
    </DataTable>
  );
}

/** "Added" for a node that is a variable of the source already, else `add`; nothing for folders. */
export function AddOrAdded({ node, added, add }: { node: BrowseNode; added: ReadonlySet<string>; add: ReactNode }) {
  const t = useT();
  if (node.NodeClass !== "Variable") return null;
  return added.has(node.NodeId) ? <span className="text-slate-600 dark:text-slate-400">{t("dataSources.browse.added")}</span> : <>{add}</>;
}
