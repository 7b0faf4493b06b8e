import { Link } from "react-router";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { RowActions, RowButton, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";
import { useSeedText } from "~/ui/seedTexts";

const PATH = "/dashboardManager";

interface Listed {
  ID: string;
  Name: string;
  IsDefault: boolean;
}

type RemoveForm = { fields: Record<string, string>; message: string; confirmLabel: string; cancelHref: string };

/** Every dashboard: open, make default, edit, duplicate, export, remove (confirmed). */
export function DashboardsTable({ dashboards, removeForm }: { dashboards: Listed[]; removeForm: (d: Listed) => RemoveForm }) {
  const t = useT();
  const seed = useSeedText();
  return (
    <DataTable
      label={t("dashboardManager.manager.title")}
      testId="dashboards-table"
      columns={[{ label: t("dashboardManager.manager.name") }, { label: t("dashboardManager.manager.default") }, { label: t("common.actions"), srOnly: true }]}
      empty={dashboards.length === 0 ? t("dashboardManager.manager.empty") : undefined}
    >
      {dashboards.map((d) => (
        <Row key={d.ID} data-dashboard={d.Name}>
          <th scope="row" className={`${cellClass} ${d.IsDefault ? "font-bold" : "font-medium"}`}>
            <Link to={`/${d.ID}`} className="hover:underline">
              {seed(d.Name)}
            </Link>
          </th>
          <Cell>
            {d.IsDefault ? (
              <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-on-brand">{t("dashboardManager.manager.default")}</span>
            ) : (
              <RowButton intent="setDefault" fields={{ id: d.ID }} label={`${t("dashboardManager.manager.setDefault")}: ${seed(d.Name)}`}>
                {t("dashboardManager.manager.setDefault")}
              </RowButton>
            )}
          </Cell>
          <Cell>
            <RowActions>
              <RowLink to={`${PATH}?edit=${d.ID}`} label={`${t("dashboardManager.manager.edit")}: ${seed(d.Name)}`}>
                {t("dashboardManager.manager.edit")}
              </RowLink>
              <RowButton intent="duplicate" fields={{ id: d.ID }} label={`${t("dashboardManager.manager.duplicate")}: ${seed(d.Name)}`}>
                {t("dashboardManager.manager.duplicate")}
              </RowButton>
              <RowLink to={`${PATH}?export=${d.ID}`} label={`${t("dashboardManager.manager.export")}: ${seed(d.Name)}`}>
                {t("dashboardManager.manager.export")}
              </RowLink>
              <RowRemove label={t("dashboardManager.manager.remove")} title={t("dashboardManager.manager.removeTitle")} confirmHref={`${PATH}?remove=${d.ID}`} {...removeForm(d)} />
            </RowActions>
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}
