import { useState } from "react";
import { useT } from "~/ui/useT";
import { inputClass } from "~/ui/FormField";

export interface PickableVariable {
  Id: string;
  Name: string;
  Unit: string;
  deviceName: string;
}

/** An error shown inside a fieldset of a history form (text already translated). */
export function FieldsetError({ id, errors }: { id: string; errors?: readonly string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="text-sm font-normal text-red-600 dark:text-red-400" data-testid="field-error">
      {errors.join(" ")}
    </p>
  );
}

/** Checkboxes grouped by device (`name="v"`); the search box hides non-matching ones with JS. */
export function VariablePicker({ variables, selected, errors }: { variables: PickableVariable[]; selected: readonly string[]; errors?: readonly string[] }) {
  const t = useT();
  const [q, setQ] = useState("");
  const devices = [...new Set(variables.map((v) => v.deviceName))];
  const match = (v: PickableVariable) => !q || `${v.Name} ${v.Unit} ${v.deviceName}`.toLowerCase().includes(q.toLowerCase());
  return (
    <fieldset className="flex flex-col gap-2" data-testid="variable-picker" aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? "variables-error" : undefined}>
      <legend className="text-sm font-medium">{t("history.variables.label")}</legend>
      <FieldsetError id="variables-error" errors={errors} />
      <input type="search" aria-label={t("history.variables.search")} placeholder={t("history.variables.search")} value={q} onChange={(e) => setQ(e.target.value)} className={`${inputClass} max-w-xs`} />
      <div className="flex max-h-64 flex-wrap gap-4 overflow-y-auto rounded-md border border-slate-200 p-2 dark:border-slate-700">
        {devices.map((d) => (
          <fieldset key={d} className="min-w-48">
            <legend className="text-xs font-semibold text-slate-500 uppercase">{d || t("history.variables.noDevice")}</legend>
            {variables
              .filter((v) => v.deviceName === d)
              .map((v) => (
                <label key={v.Id} className={`flex items-center gap-2 text-sm ${match(v) ? "" : "hidden"}`}>
                  <input type="checkbox" name="v" value={v.Id} defaultChecked={selected.includes(v.Id)} />
                  {v.Unit ? `${v.Name} [${v.Unit}]` : v.Name}
                </label>
              ))}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}
