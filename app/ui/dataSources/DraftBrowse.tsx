import type { BrowseNode } from "~/services/logger/sourceSchemas";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { useT } from "~/ui/useT";
import type { BrowseLevel } from "./BrowsePanel";
import { problemMessage } from "./problem";

// The OPC UA server's address space browsed from the form itself, before the source is saved
// (or with its connection being edited): every step is a submit button of the source's form, so
// the action gets the endpoint, security and sign-in as typed (the password as typed or kept on
// the server, see dataSources.pending.server.ts) and answers with the form as it was plus one
// level of nodes. "Add" puts the node into the form as a new variable row; nothing is stored
// until Save. The path travels in hidden inputs (browse.node / browse.name).

const link = "cursor-pointer rounded text-brand hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand";

/** What a button carries: JSON after the intent's name (the action parses it back with `browseStep`). */
const value = (intent: string, payload: unknown) => `${intent}:${JSON.stringify(payload)}`;

export function DraftBrowse({ level, added }: { level: BrowseLevel; added: ReadonlySet<string> }) {
  const t = useT();
  const { trail, nodes, error } = level;
  const node = (n: BrowseNode) => ({ NodeId: n.NodeId, DisplayName: n.DisplayName, Unit: n.Unit, RangeMin: n.RangeMin, RangeMax: n.RangeMax, Writable: n.Writable });
  return (
    <section className="flex flex-col gap-3 rounded-md border border-slate-200 p-4 dark:border-slate-700" aria-labelledby="draft-browse-title" data-testid="browse-panel">
      <h3 id="draft-browse-title" className="text-sm font-semibold">
        {t("dataSources.browse.draftTitle")}
      </h3>
      {trail.map((step, i) => (
        <span key={`${i}-${step.nodeId}`} hidden>
          <input type="hidden" name="browse.node" value={step.nodeId} />
          <input type="hidden" name="browse.name" value={step.name} />
        </span>
      ))}
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
                <button type="submit" name="intent" value={`browseTo:${i}`} className={link}>
                  {step.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="browse-error">
          {t("dataSources.browse.failed", { error: problemMessage(t, error.problem, error.text) })}{" "}
          <button type="submit" name="intent" value={`browseTo:${trail.length}`} className="cursor-pointer font-semibold underline">
            {t("dataSources.browse.retry")}
          </button>
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
                <span className="flex gap-3 whitespace-nowrap">
                  {n.HasChildren && (
                    <button type="submit" name="intent" value={value("browseOpen", { nodeId: n.NodeId, name: n.DisplayName })} className={link} aria-label={t("dataSources.browse.openNamed", { name: n.DisplayName })}>
                      {t("dataSources.browse.openFolder")}
                    </button>
                  )}
                  {n.NodeClass === "Variable" &&
                    (added.has(n.NodeId) ? (
                      <span className="text-slate-600 dark:text-slate-400">{t("dataSources.browse.added")}</span>
                    ) : (
                      <button type="submit" name="intent" value={value("browseAdd", node(n))} className={link} aria-label={t("dataSources.browse.addNamed", { name: n.DisplayName })} data-testid="browse-add">
                        {t("dataSources.browse.add")}
                      </button>
                    ))}
                </span>
              </Cell>
            </Row>
          ))}
        </DataTable>
      )}
      <p>
        <button type="submit" name="intent" value="browseClose" className={link}>
          {t("dataSources.browse.closeDraft")}
        </button>
      </p>
    </section>
  );
}
