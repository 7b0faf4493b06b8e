import { Link } from "react-router";
import { joinPath, parentOf } from "~/schemas/fileBrowser";
import type { FileEntry } from "~/services/logger/schemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { formatSize } from "~/ui/fileSize";
import { useFormatters } from "~/ui/format";
import { actionClass, RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";

const PATH = "/fileBrowser";

/** The folder's entries (already sorted): open, preview, download, rename, remove. */
export function FilesTable({ path, entries, here }: { path: string; entries: FileEntry[]; here: (extra?: Record<string, string>) => string }) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  return (
    <DataTable
      label={t("fileBrowser.title")}
      testId="files-table"
      columns={[
        { label: t("fileBrowser.columns.name"), sort: "name" },
        { label: t("fileBrowser.columns.type"), sort: "type" },
        { label: t("fileBrowser.columns.size"), sort: "size" },
        { label: t("fileBrowser.columns.modified"), sort: "modified" },
        { label: t("fileBrowser.columns.actions"), srOnly: true },
      ]}
    >
      {path && (
        <Row>
          <Cell colSpan={5}>
            <Link to={`?${new URLSearchParams({ path: parentOf(path) })}`} className="text-brand hover:underline">
              {t("fileBrowser.up")}
            </Link>
          </Cell>
        </Row>
      )}
      {entries.length === 0 && (
        <tr>
          <td colSpan={5} className="px-4 py-6 text-center text-slate-600 dark:text-slate-300" data-testid="table-empty">
            {t("fileBrowser.empty")}
          </td>
        </tr>
      )}
      {entries.map((e) => {
        const full = joinPath(path, e.Name);
        return (
          <Row key={e.Name} data-entry={e.Name}>
            <Cell className="font-medium break-all">
              {e.Type === "folder" ? (
                <Link to={`?${new URLSearchParams({ path: full })}`} className="text-brand hover:underline">
                  📁 {e.Name}
                </Link>
              ) : e.Type === "file" ? (
                <Link to={here({ preview: full })} className="hover:underline" preventScrollReset>
                  {e.Name}
                </Link>
              ) : (
                e.Name
              )}
            </Cell>
            <Cell>{t(`fileBrowser.types.${e.Type}`)}</Cell>
            <Cell className="whitespace-nowrap">{e.Type === "file" ? formatSize(e.Size, number) : "—"}</Cell>
            <Cell>{dateTime(e.Modified)}</Cell>
            <Cell>
              <RowActions>
                {e.Type === "file" && (
                  <a href={`${PATH}/raw?${new URLSearchParams({ path: full, download: "1" })}`} className={actionClass} download>
                    {t("fileBrowser.download")}
                  </a>
                )}
                <RowLink to={here({ rename: full })}>{t("fileBrowser.rename")}</RowLink>
                <RowRemove
                  label={t("common.remove")}
                  title={t("fileBrowser.removeTitle", { name: e.Name })}
                  message={t("fileBrowser.removeMessage", { name: full })}
                  confirmLabel={t("fileBrowser.removeConfirm")}
                  confirmHref={here({ remove: full })}
                  cancelHref={here()}
                  fields={{ intent: "remove", entry: full, path }}
                />
              </RowActions>
            </Cell>
          </Row>
        );
      })}
    </DataTable>
  );
}
