import { useEffect, useState } from "react";
import { useT } from "~/ui/useT";
import type { LiveState } from "./useLiveValues";

/** Live / reconnecting badge; only with JavaScript, since without it nothing updates live. */
export function LiveBadge({ state }: { state: LiveState }) {
  const t = useT();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  const colour = state === "live" ? "bg-green-500" : state === "offline" ? "bg-red-500" : "bg-slate-400";
  return (
    <span className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300" data-testid="live-state" data-state={state} role="status">
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${colour}`} />
      {t(`liveState.${state}`)}
    </span>
  );
}
