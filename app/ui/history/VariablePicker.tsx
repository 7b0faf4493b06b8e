import { useEffect, useId, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useT } from "~/ui/useT";
import { inputClass } from "~/ui/FormField";
import { groupVariables, matchesQuery, variableLabel, type PickableVariable, type VariableGroup } from "~/ui/picker/pickerModel";

export type { PickableVariable } from "~/ui/picker/pickerModel";

/** An error shown inside a fieldset of a history form (text already translated). */
export function FieldsetError({ id, errors }: { id: string; errors?: readonly string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="text-sm font-normal text-red-600 dark:text-red-400" data-testid="field-error">
      {errors.join(" ")}
    </p>
  );
}

const chipClass =
  "inline-flex max-w-full items-center gap-1 rounded-full border border-brand/40 bg-brand/10 px-3 py-1 text-sm text-slate-800 hover:bg-brand/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand dark:text-slate-100";

/**
 * The one variable picker (analytics, monitor, export, dashboard widgets, alarm rules): checkboxes
 * named `name` grouped by device — radio buttons where one variable is chosen (`single`, a rule) —
 * a search box, and the chosen ones kept in view above the list.
 *
 * Without JavaScript the chosen ones are the checked checkboxes of a "Selected" group listed
 * first, and — when `filterAction` names the page that renders this form from its query — a
 * "Filter" button submits the form there with `q`, so the choices survive the filtering.
 * With JavaScript the search filters as one types and the chosen ones become removable chips.
 */
export function VariablePicker({
  variables,
  selected,
  errors,
  name = "v",
  label,
  hint,
  filterAction,
  errorId = "variables-error",
  single = false,
  onChange,
}: {
  variables: PickableVariable[];
  selected: readonly string[];
  /** Already translated. */
  errors?: readonly string[];
  name?: string;
  label?: string;
  hint?: string;
  /** The page (GET) that re-renders this form from its query: enables the no-JS filter. */
  filterAction?: string;
  errorId?: string;
  /** Exactly one variable (radio buttons): an alarm rule's. */
  single?: boolean;
  onChange?(ids: string[]): void;
}) {
  const t = useT();
  const uid = useId();
  const [params] = useSearchParams();
  const path = useLocation().pathname;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [query, setQuery] = useState(filterAction ? (params.get("q") ?? "") : "");
  const [chosen, setChosen] = useState<string[]>([...selected]);
  // A navigation that brings other choices (a link, a submitted GET form) replaces them.
  const [basis, setBasis] = useState(selected.join("\n"));
  if (basis !== selected.join("\n")) {
    setBasis(selected.join("\n"));
    setChosen([...selected]);
  }
  const chipsRef = useRef<HTMLUListElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const focusAfterRemoval = useRef<number | null>(null);
  useEffect(() => {
    const at = focusAfterRemoval.current;
    if (at === null) return;
    focusAfterRemoval.current = null;
    // Keep the keyboard where it was: the chip that took the removed one's place, else the search box.
    const chips = chipsRef.current?.querySelectorAll("button");
    (chips?.[Math.min(at, chips.length - 1)] ?? searchRef.current)?.focus();
  }, [chosen]);

  const set = (ids: string[]) => {
    setChosen(ids);
    onChange?.(ids);
  };
  const toggle = (id: string, on: boolean) => set(on ? (single ? [id] : [...chosen.filter((x) => x !== id), id]) : chosen.filter((x) => x !== id));
  const byId = new Map(variables.map((v) => [v.Id, v]));
  const chosenVars = chosen.map((id) => byId.get(id)).filter((v) => v !== undefined);
  const chosenSet = new Set(chosen);
  // Without JavaScript the chosen ones are listed apart, first, and the server left out what the
  // filter does not match; with it everything stays rendered (a hidden checked box still posts).
  const groups = hydrated ? groupVariables(variables, "") : groupVariables(variables, query, chosenSet);
  const visible = (v: PickableVariable) => !hydrated || matchesQuery(v, query);
  const shown = variables.filter((v) => matchesQuery(v, query)).length;
  const oneGroup = groupVariables(variables, "").length <= 1;
  const describedBy = [errors?.length ? errorId : "", hint ? `${uid}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const groupLabel = (g: VariableGroup) => g.label || (g.key ? t("picker.device", { id: g.key }) : t("picker.noDevice"));
  const box = (v: PickableVariable) => (
    <label key={v.Id} className={`flex items-center gap-2 py-0.5 text-sm ${visible(v) ? "" : "hidden"}`}>
      <input type={single ? "radio" : "checkbox"} name={name} value={v.Id} checked={chosenSet.has(v.Id)} onChange={(e) => toggle(v.Id, e.currentTarget.checked)} className="h-4 w-4 accent-brand" />
      {variableLabel(v)}
    </label>
  );

  return (
    <fieldset className="flex min-w-0 flex-col gap-2" data-testid="variable-picker" aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy}>
      <legend className="text-sm font-medium">
        {label ?? t("picker.label")} <span className="font-normal text-slate-600 dark:text-slate-300">{t("picker.count", { count: chosenVars.length })}</span>
      </legend>
      {hint && (
        <p id={`${uid}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
          {hint}
        </p>
      )}
      <FieldsetError id={errorId} errors={errors} />
      {hydrated ? (
        <div aria-label={t("picker.selected")} role="group" data-testid="picker-chips">
          {chosenVars.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t("picker.none")}</p>
          ) : (
            <ul ref={chipsRef} className="flex flex-wrap gap-2">
              {chosenVars.map((v, i) => (
                <li key={v.Id} className="max-w-full">
                  <button
                    type="button"
                    className={chipClass}
                    data-testid="picker-chip"
                    onClick={() => {
                      focusAfterRemoval.current = i;
                      toggle(v.Id, false);
                    }}
                  >
                    {/* Named by its text, not aria-label, so finding the checkbox by its label finds only the checkbox. */}
                    <span className="sr-only">{t("picker.remove", { name: variableLabel(v) })}</span>
                    <span className="truncate" aria-hidden="true">
                      {variableLabel(v)}
                    </span>
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        chosenVars.length > 0 && (
          <fieldset className="rounded-md border border-brand/40 bg-brand/5 p-2" data-testid="picker-selected">
            <legend className="px-1 text-xs font-semibold text-slate-700 uppercase dark:text-slate-200">{t("picker.selected")}</legend>
            <div className="flex flex-wrap gap-x-4">{chosenVars.map(box)}</div>
          </fieldset>
        )
      )}
      {(hydrated || filterAction) && (
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={searchRef}
            type="search"
            name={filterAction ? "q" : undefined}
            aria-label={t("picker.search")}
            placeholder={t("picker.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              // With the list filtering live, Enter must not submit the surrounding form.
              if (e.key === "Enter" && hydrated) e.preventDefault();
              if (e.key === "Escape" && query) (e.preventDefault(), setQuery(""));
            }}
            className={`${inputClass} max-w-xs`}
            data-testid="picker-search"
          />
          {!hydrated && filterAction && (
            <button type="submit" formAction={filterAction === "." ? path : filterAction} formMethod="get" className="rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
              {t("picker.filter")}
            </button>
          )}
          {query && (
            <span className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="picker-shown">
              {t("picker.shown", { shown, total: variables.length })}
            </span>
          )}
        </div>
      )}
      <div className="flex max-h-64 flex-wrap gap-x-6 gap-y-2 overflow-y-auto rounded-md border border-slate-200 p-2 dark:border-slate-700" data-testid="picker-list">
        {(groups.length === 0 || shown === 0) && <p className="text-sm text-slate-600 dark:text-slate-300">{query ? t("picker.noMatch", { query }) : t("picker.noVariables")}</p>}
        {groups.map((g) =>
          oneGroup && !g.label ? (
            <div key={g.key} className={`min-w-48 ${g.variables.some(visible) ? "" : "hidden"}`}>
              {g.variables.map(box)}
            </div>
          ) : (
            <fieldset key={g.key} className={`min-w-48 ${g.variables.some(visible) ? "" : "hidden"}`}>
              <legend className="text-xs font-semibold text-slate-600 uppercase dark:text-slate-300">{groupLabel(g)}</legend>
              {g.variables.map(box)}
            </fieldset>
          ),
        )}
      </div>
    </fieldset>
  );
}
