import { createContext, useContext, useEffect } from "react";
import type { LiveSample } from "~/ui/live/useLiveValues";

/**
 * Live samples for the dashboard's charts. Charts append to uPlot directly instead of through
 * React state, so a live update costs one setData, not a re-render of the page.
 */
export class LiveBus {
  private readonly listeners = new Set<(s: LiveSample) => void>();
  emit(sample: LiveSample) {
    for (const l of this.listeners) l(sample);
  }
  subscribe(listener: (s: LiveSample) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

export const LiveBusContext = createContext<LiveBus | null>(null);

export function useLiveSamples(listener: ((s: LiveSample) => void) | null) {
  const bus = useContext(LiveBusContext);
  useEffect(() => (bus && listener ? bus.subscribe(listener) : undefined), [bus, listener]);
}
