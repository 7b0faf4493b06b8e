import { Link } from "react-router";
import type { BrowseNode } from "~/services/logger/sourceSchemas";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { Panel } from "~/ui/Panel";
import { RowActions, RowButton, RowLink } from "~/ui/RowActions";
import { useT } from "~/ui/useT";
import { problemMessage, type Problem } from "./problem";

export interface BrowseLevel {
  /** The path from the Objects folder down to the level shown. */
  trail: { nodeId: string; name: string }[];
  nodes: BrowseNode[];
  /** The logger's refusal (server unreachable, unknown node), with its code where it gives one: shown instead of the nodes. */
  error: { text: string; problem?: Problem } | null;
  /** The fingerprint of the certificate the server presented (null: no security, none used). */
  fingerprint?: string | null;
}

/**
 * An OPC UA server's address space, one level at a time. The path lives in the URL (`node` and
 * `name`, one pair per level), so opening a folder is a plain link; "Add" posts one node, which
 * the action adds to the source as a variable named, ranged and with the unit the node states.
 */
export function BrowsePanel({
  sourceId,
  sourceName,
  level,
  added,
  hrefOf,
  closeHref,
}: {
  sourceId: number;
  sourceName: string;
  level: BrowseLevel;
  /** NodeIds that are variables of the source already. */
  added: ReadonlySet<string>;
  /** The page URL browsing this trail. */
  hrefOf: (trail: BrowseLevel["trail"]) => string;
  closeHref: string;
}) {
  const t = useT();
  const { trail, nodes, error } = level;
  return (
    <Panel title={t("dataSources.browse.title", { name: sourceName })}>
      <div className="flex flex-col gap-4" data-testid="browse-panel">
        <nav aria-label={t("dataSources.browse.path")}>
          <ol className="flex flex-wrap items-center gap-1 text-sm">
            {[{ nodeId: "", name: t("dataSources.browse.root") }, ...trail].map((step, i, all) => (
              <li key={`${i}-${step.nodeId}`} className="flex items-center gap-1">
                {i > 0 && <span aria-hidden="true">/</span>}
                {i === all.length - 1 ? (
                  <span aria-current="location" className="font-semibold">
                    {step.name}
                  </span>
                ) : (
                  <Link to={hrefOf(trail.slice(0, i))} className="text-brand underline" preventScrollReset>
                    {step.name}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
        {error ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="browse-error">
            {t("dataSources.browse.failed", { error: problemMessage(t, error.problem, error.text) })}{" "}
            <Link to={hrefOf(trail)} className="font-semibold underline" preventScrollReset>
              {t("dataSources.browse.retry")}
            </Link>
          </p>
        ) : (
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
                <Cell>
                  <RowActions className="justify-start whitespace-nowrap">
                    {n.HasChildren && (
                      <RowLink to={hrefOf([...trail, { nodeId: n.NodeId, name: n.DisplayName }])} label={t("dataSources.browse.openNamed", { name: n.DisplayName })}>
                        {t("dataSources.browse.openFolder")}
                      </RowLink>
                    )}
                    {n.NodeClass === "Variable" &&
                      (added.has(n.NodeId) ? (
                        <span className="text-slate-600 dark:text-slate-400">{t("dataSources.browse.added")}</span>
                      ) : (
                        <RowButton intent="addNode" fields={{ id: String(sourceId), NodeId: n.NodeId }} label={t("dataSources.browse.addNamed", { name: n.DisplayName })} testId="browse-add">
                          {t("dataSources.browse.add")}
                        </RowButton>
                      ))}
                  </RowActions>
                </Cell>
              </Row>
            ))}
          </DataTable>
        )}
        <p>
          <Link to={closeHref} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700" preventScrollReset>
            {t("common.close")}
          </Link>
        </p>
      </div>
    </Panel>
  );
}
