import { Link } from "react-router";
import type { BrowseNode } from "~/services/logger/sourceSchemas";
import { Panel } from "~/ui/Panel";
import { RowActions, RowButton, RowLink } from "~/ui/RowActions";
import { useT } from "~/ui/useT";
import { AddOrAdded, BrowseNodes, BrowsePath } from "./BrowseLevelView";
import type { Problem } from "./problem";

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
  const { trail } = level;
  return (
    <Panel title={t("dataSources.browse.title", { name: sourceName })}>
      <div className="flex flex-col gap-4" data-testid="browse-panel">
        <BrowsePath
          trail={trail}
          step={(i, name) => (
            <Link to={hrefOf(trail.slice(0, i))} className="text-brand underline" preventScrollReset>
              {name}
            </Link>
          )}
        />
        <BrowseNodes
          level={level}
          retry={
            <Link to={hrefOf(trail)} className="font-semibold underline" preventScrollReset>
              {t("dataSources.browse.retry")}
            </Link>
          }
          actions={(n) => (
            <RowActions className="justify-start whitespace-nowrap">
              {n.HasChildren && (
                <RowLink to={hrefOf([...trail, { nodeId: n.NodeId, name: n.DisplayName }])} label={t("dataSources.browse.openNamed", { name: n.DisplayName })}>
                  {t("dataSources.browse.openFolder")}
                </RowLink>
              )}
              <AddOrAdded
                node={n}
                added={added}
                add={
                  <RowButton intent="addNode" fields={{ id: String(sourceId), NodeId: n.NodeId }} label={t("dataSources.browse.addNamed", { name: n.DisplayName })} testId="browse-add">
                    {t("dataSources.browse.add")}
                  </RowButton>
                }
              />
            </RowActions>
          )}
        />
        <p>
          <Link to={closeHref} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700" preventScrollReset>
            {t("common.close")}
          </Link>
        </p>
      </div>
    </Panel>
  );
}
