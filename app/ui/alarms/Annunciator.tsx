import { lazy, Suspense, useEffect, useState } from "react";
import { useRootData } from "~/ui/rootData";

// The audible annunciator of wall displays and dashboards (issue 26 §4): browser audio (Web
// Audio, no sound file), opt-in per display (browsers only play sound after a click there), for the
// alarm priorities chosen in Global Settings, silenced by one click until another alarm comes.
// JavaScript-only by nature, so its code (AnnunciatorPanel) loads only where it is switched on in
// Global Settings; without priorities chosen it is not there at all.

const Panel = lazy(() => import("./AnnunciatorPanel"));

export function Annunciator({ className = "" }: { className?: string }) {
  const severities = useRootData()?.annunciator ?? [];
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated || severities.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Panel severities={severities} className={className} />
    </Suspense>
  );
}
