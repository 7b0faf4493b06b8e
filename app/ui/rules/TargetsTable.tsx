import type { NotificationTarget } from "~/services/logger/schemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { RowActions, RowButton, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";

/** The notification targets with a test send, edit and remove per row. */
export function TargetsTable({ targets, editHref, removeHref, listHref }: { targets: NotificationTarget[]; editHref(id: number): string; removeHref(id: number): string; listHref: string }) {
  const t = useT();
  const columns = [...["name", "type", "destination", "enabled"].map((c) => ({ label: t(`rules.columns.${c}`) })), { label: t("common.actions"), srOnly: true }];
  return (
    <DataTable label={t("rules.targetsTitle")} testId="targets-table" columns={columns} empty={targets.length === 0 ? t("rules.noTargets") : undefined}>
      {targets.map((x) => (
        <Row key={x.ID} data-target={x.Name}>
          <Cell className="font-medium">{x.Name}</Cell>
          <Cell>{t(`rules.targetType.${x.Type}`)}</Cell>
          <Cell className="break-all">{x.Type === "webhook" ? x.URL : `${(x.To ?? []).join(", ")} (${x.SmtpHost}:${x.SmtpPort})`}</Cell>
          <Cell>{x.Enabled ? t("common.yes") : t("common.no")}</Cell>
          <Cell>
            <RowActions>
              <RowButton intent="test" fields={{ id: String(x.ID) }} label={`${t("rules.sendTest")} ${x.Name}`}>
                {t("rules.sendTest")}
              </RowButton>
              <RowLink to={editHref(x.ID)} label={`${t("common.edit")} ${x.Name}`}>
                {t("common.edit")}
              </RowLink>
              <RowRemove
                label={t("common.remove")}
                title={t("rules.removeTargetTitle", { name: x.Name })}
                message={t("rules.removeTargetMessage", { name: x.Name })}
                confirmLabel={t("common.remove")}
                confirmHref={removeHref(x.ID)}
                fields={{ intent: "removeTarget", id: String(x.ID) }}
                cancelHref={listHref}
              />
            </RowActions>
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}
