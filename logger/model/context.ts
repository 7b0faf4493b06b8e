import type { StreamHub } from "../api/data/stream.ts";
import type { LiveCaps } from "../api/data/live-caps.ts";
import type { HeavyGate, HeavyLane } from "../http/heavy.ts";
import type { Simulator } from "../sim/simulator.ts";
import type { SourceManager } from "../sources/manager.ts";
import type { SeriesStore } from "../store/series/store.ts";
import type { Acquisition } from "./acquisition.ts";
import type { LiveValues } from "./live.ts";
import type { Model, Variable } from "./types.ts";

/** Everything the data API and the device RPCs share. */
export type DataContext = {
  store: SeriesStore;
  live: LiveValues;
  /** null when the simulator is off: history stays readable, nothing is acquired. */
  sim: Simulator | null;
  /** The data sources (MQTT, Modbus TCP, OPC UA devices; decision 0010). */
  sources: SourceManager;
  /** The project's Start/Stop, over the simulator and the data sources. */
  acquisition: Acquisition;
  model: Model;
  streams: StreamHub;
  /** Live connections (/ws, /online/stream) per user and in all, and the console relay's reserve (issue 24 §4). */
  liveCaps: LiveCaps;
  /** Heavy data answers: places per user and in all, and their shared lane of CPU (issue 24 §3). */
  heavy: { gate: HeavyGate; lane: HeavyLane };
  now: () => number;
};

export function findVariable(data: DataContext, id: string): Variable | undefined {
  return data.model.variables.find((v) => v.Id === id);
}
