import { useEffect, useRef, useState } from "react";
import { BYTE_ORDERS, DIRECTIONS, MODBUS_REGISTERS, MODBUS_TYPES, MQTT_QOS, type Protocol } from "~/services/logger/sourceSchemas";
import { headCellClass } from "~/ui/DataTable";
import { useT } from "~/ui/useT";
import { ADDRESS_FIELDS, newVariable, type Errors, type Values } from "./draft";
import { idOf, plainOptions, SelectField, TextField } from "./Field";

const smallButton =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand dark:border-slate-600 dark:hover:bg-slate-700";
const removeButton = "rounded px-1 text-sm text-red-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 dark:text-red-300";

/** Columns of the address per protocol, with their control. */
function addressColumns(protocol: Protocol, t: (k: string) => string) {
  const select = (options: readonly (string | number)[]) => ({ options: plainOptions(options) });
  const text = (type: "text" | "number" = "text", width = "w-24") => ({ type, width });
  const cols: Record<Protocol, Record<string, { options?: { value: string; label: string }[]; type?: "text" | "number"; width?: string }>> = {
    mqtt: { Topic: text("text", "w-48"), JsonPath: text("text", "w-32"), TimestampPath: text("text", "w-32"), Qos: select(MQTT_QOS) },
    modbus: {
      Register: { options: MODBUS_REGISTERS.map((r) => ({ value: r, label: t(`dataSources.modbus.register_${r}`) })) },
      Address: text("number"),
      Type: select(MODBUS_TYPES),
      WordOrder: { options: BYTE_ORDERS.map((o) => ({ value: o, label: t(`dataSources.modbus.order_${o}`) })) },
      ByteOrder: { options: BYTE_ORDERS.map((o) => ({ value: o, label: t(`dataSources.modbus.order_${o}`) })) },
      Scale: text("number"),
      Offset: text("number"),
    },
    opcua: { NodeId: text("text", "w-64") },
  };
  return ADDRESS_FIELDS[protocol].map((k) => ({ key: k, label: t(`dataSources.address.${k}`), ...cols[protocol][k] }));
}

interface Row {
  key: string;
  values: Values;
  /** The row's index in the draft the server rendered: its errors are keyed by it. */
  origin: number | null;
}

/**
 * The variables of a source, editable without JavaScript: every row is part of the form, and
 * "Add variable" / "Remove" are submit buttons (intent addRow / removeRow:N) the action answers
 * with the form as typed plus or minus a row. With JavaScript they change the rows in place, so
 * nothing goes to the server until Save.
 */
export function VariablesTable({ protocol, variables, errors }: { protocol: Protocol; variables: Values[]; errors: Errors }) {
  const t = useT();
  const [rows, setRows] = useState<Row[]>(() => variables.map((values, i) => ({ key: `r${i}`, values, origin: i })));
  const nextKey = useRef(variables.length);
  const focusRow = useRef<string | null>(null);
  useEffect(() => {
    if (focusRow.current === null) return;
    const index = rows.findIndex((r) => r.key === focusRow.current);
    focusRow.current = null;
    if (index >= 0) document.getElementById(idOf(`Variables.${index}.Name`))?.focus();
  }, [rows]);
  const address = addressColumns(protocol, t);
  const directions = DIRECTIONS.map((d) => ({ value: d, label: t(`dataSources.direction_${d}`) }));
  const headers = [t("dataSources.var.Name"), t("dataSources.var.Unit"), t("dataSources.var.RangeMin"), t("dataSources.var.RangeMax"), t("dataSources.var.Precision"), t("dataSources.var.Direction"), ...address.map((a) => a.label)];

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-2 text-sm font-semibold">{t("dataSources.variables")}</legend>
      <p className="text-xs text-slate-600 dark:text-slate-400">{t(`dataSources.variablesHint_${protocol}`)}</p>
      <div className="max-w-full min-w-0 overflow-x-auto rounded-md border border-slate-200 dark:border-slate-700">
        <table className="text-left text-sm" data-testid="source-variables">
          <caption className="sr-only">{t("dataSources.variables")}</caption>
          <thead className="bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100">
            <tr>
              {headers.map((h) => (
                <th key={h} scope="col" className={headCellClass}>
                  {h}
                </th>
              ))}
              <th scope="col" className={headCellClass}>
                <span className="sr-only">{t("common.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={headers.length + 1} className="px-4 py-4 text-center text-slate-600 dark:text-slate-300" data-testid="variables-empty">
                  {t("dataSources.noVariables")}
                </td>
              </tr>
            )}
            {rows.map((row, i) => {
              const name = (k: string) => `Variables.${i}.${k}`;
              const field = (k: string, label: string) => ({
                name: name(k),
                srLabel: t("dataSources.cellLabel", { column: label, row: i + 1 }),
                defaultValue: row.values[k] ?? "",
                errors: row.origin === null ? undefined : errors[`Variables.${row.origin}.${k}`],
              });
              return (
                <tr key={row.key} className="border-t border-slate-100 align-top dark:border-slate-700" data-testid="variable-row">
                  <td className="px-2 py-2">
                    <input type="hidden" name={name("VariableId")} value={row.values.VariableId ?? ""} />
                    <TextField {...field("Name", headers[0]!)} className="w-40" />
                  </td>
                  <td className="px-2 py-2">
                    <TextField {...field("Unit", headers[1]!)} className="w-20" />
                  </td>
                  <td className="px-2 py-2">
                    <TextField {...field("RangeMin", headers[2]!)} type="number" inputMode="decimal" className="w-24" />
                  </td>
                  <td className="px-2 py-2">
                    <TextField {...field("RangeMax", headers[3]!)} type="number" inputMode="decimal" className="w-24" />
                  </td>
                  <td className="px-2 py-2">
                    <TextField {...field("Precision", headers[4]!)} type="number" inputMode="numeric" className="w-20" />
                  </td>
                  <td className="px-2 py-2">
                    <SelectField {...field("Direction", headers[5]!)} options={directions} className="w-32" />
                  </td>
                  {address.map((col) => (
                    <td key={col.key} className="px-2 py-2">
                      {col.options ? (
                        <SelectField {...field(`Address.${col.key}`, col.label)} options={col.options} className="w-28" />
                      ) : (
                        <TextField {...field(`Address.${col.key}`, col.label)} type={col.type} className={col.width} />
                      )}
                    </td>
                  ))}
                  <td className="px-2 py-3">
                    <button
                      type="submit"
                      name="intent"
                      value={`removeRow:${i}`}
                      className={removeButton}
                      aria-label={t("dataSources.removeVariable", { row: i + 1 })}
                      onClick={(event) => {
                        event.preventDefault();
                        setRows((current) => current.filter((r) => r.key !== row.key));
                      }}
                    >
                      {t("common.remove")}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div>
        <button
          type="submit"
          name="intent"
          value="addRow"
          className={smallButton}
          onClick={(event) => {
            event.preventDefault();
            const key = `r${nextKey.current++}`;
            focusRow.current = key;
            setRows((current) => [...current, { key, values: newVariable(protocol), origin: null }]);
          }}
        >
          {t("dataSources.addVariable")}
        </button>
      </div>
    </fieldset>
  );
}
