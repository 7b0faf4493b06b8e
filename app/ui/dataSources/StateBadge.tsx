import type { SourceState } from "~/services/logger/sourceSchemas";
import { useT } from "~/ui/useT";
import { problemMessage } from "./problem";

const DOT: Record<SourceState["State"], string> = {
  connected: "bg-green-500",
  connecting: "bg-amber-400",
  error: "bg-red-600",
  disabled: "bg-slate-400",
};

/** A source's connection state in words (the dot only repeats it), with the last error when failing. */
export function StateBadge({ state, showError = true }: { state: SourceState; showError?: boolean }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-0.5">
      <span className="flex items-center gap-2 whitespace-nowrap" data-testid="source-state">
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${DOT[state.State]}`} />
        {t(`dataSources.state_${state.State}`)}
      </span>
      {showError && state.State === "error" && state.LastError && (
        <span className="max-w-xs text-xs break-words text-red-700 dark:text-red-300" data-testid="source-error">
          {problemMessage(t, state.Problem, state.LastError)}
        </span>
      )}
    </div>
  );
}
