import type { BrowseNode } from "~/services/logger/sourceSchemas";
import { useT } from "~/ui/useT";
import type { BrowseLevel } from "./BrowsePanel";
import { AddOrAdded, BrowseNodes, BrowsePath } from "./BrowseLevelView";

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
  const { trail } = level;
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
      <BrowsePath
        trail={trail}
        step={(i, name) => (
          <button type="submit" name="intent" value={`browseTo:${i}`} className={link}>
            {name}
          </button>
        )}
      />
      <BrowseNodes
        level={level}
        retry={
          <button type="submit" name="intent" value={`browseTo:${trail.length}`} className="cursor-pointer font-semibold underline">
            {t("dataSources.browse.retry")}
          </button>
        }
        actions={(n) => (
          <span className="flex gap-3 whitespace-nowrap">
            {n.HasChildren && (
              <button type="submit" name="intent" value={value("browseOpen", { nodeId: n.NodeId, name: n.DisplayName })} className={link} aria-label={t("dataSources.browse.openNamed", { name: n.DisplayName })}>
                {t("dataSources.browse.openFolder")}
              </button>
            )}
            <AddOrAdded
              node={n}
              added={added}
              add={
                <button type="submit" name="intent" value={value("browseAdd", node(n))} className={link} aria-label={t("dataSources.browse.addNamed", { name: n.DisplayName })} data-testid="browse-add">
                  {t("dataSources.browse.add")}
                </button>
              }
            />
          </span>
        )}
      />
      <p>
        <button type="submit" name="intent" value="browseClose" className={link}>
          {t("dataSources.browse.closeDraft")}
        </button>
      </p>
    </section>
  );
}
