import type { User } from "~/services/logger/schemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { panelHref } from "~/ui/pageState";
import { RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";
import { zoneLabel } from "./UserForms";

/** The panels a user row opens through the URL (shared with the route). */
export const USER_PANELS = ["add", "edit", "password", "remove"] as const;

/** The users list: sortable columns, edit / reset password / remove per row. */
export function UsersTable({ users, me, roleName, params, listHref }: { users: User[]; me: number | null; roleName: (id: number) => string; params: URLSearchParams; listHref: string }) {
  const t = useT();
  return (
    <DataTable
      label={t("users.title")}
      testId="users-table"
      empty={users.length === 0 ? t("users.empty") : undefined}
      columns={[
        { label: t("users.columns.username"), sort: "username" },
        { label: t("users.columns.email"), sort: "email" },
        { label: t("users.columns.role"), sort: "role" },
        { label: t("users.columns.timezone"), sort: "timezone" },
        { label: t("common.actions"), srOnly: true },
      ]}
    >
      {users.map((u) => (
        <Row key={u.ID} data-username={u.Username}>
          <Cell className="font-medium">
            {u.Username} {u.ID === me && <span className="text-xs text-slate-600 dark:text-slate-300">({t("users.you")})</span>}
          </Cell>
          <Cell>{u.EMail}</Cell>
          <Cell>{roleName(u.Role)}</Cell>
          <Cell>{zoneLabel(u) || t("users.fields.browserZone")}</Cell>
          <Cell>
            <RowActions>
              <RowLink to={panelHref(params, USER_PANELS, "edit", u.ID)} label={`${t("common.edit")} ${u.Username}`}>
                {t("common.edit")}
              </RowLink>
              <RowLink to={panelHref(params, USER_PANELS, "password", u.ID)} label={`${t("users.resetPassword")} ${u.Username}`}>
                {t("users.resetPassword")}
              </RowLink>
              <RowRemove
                label={t("common.remove")}
                title={t("users.removeTitle", { username: u.Username })}
                message={t("users.removeMessage", { username: u.Username })}
                confirmLabel={t("users.removeConfirm")}
                confirmHref={panelHref(params, USER_PANELS, "remove", u.ID)}
                fields={{ intent: "remove", id: String(u.ID) }}
                cancelHref={listHref}
              />
            </RowActions>
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}
