import type { Simulator } from "../sim/simulator.ts";
import type { SourceManager } from "../sources/manager.ts";
import { setRunning } from "../store/measurements.ts";
import type { Db } from "../store/db.ts";

/**
 * The project's Start/Stop (Project State), which governs every acquirer: the simulator, the
 * data sources and the CAN signals. Independent of the simulator, so SIM=off with a data source
 * is a real deployment (decision 0010). Stopped, sources stay connected but store nothing.
 */
export class Acquisition {
  running: boolean;
  since: number;
  /**
   * Who started or stopped acquisition last (a user name), null when no one did (the state it
   * started in); undefined until looked up in the audit log after a restart (changedByLookup).
   */
  changedBy: string | null | undefined = undefined;
  private readonly db: Db;
  private readonly sim: Simulator | null;
  private readonly sources: SourceManager;
  private readonly now: () => number;
  /** The last stored state change: stored one after another, so the last one wins. */
  private stored: Promise<void> = Promise.resolve();

  constructor(o: { db: Db; sim: Simulator | null; sources: SourceManager; now: () => number; running: boolean; since: number }) {
    this.db = o.db;
    this.sim = o.sim;
    this.sources = o.sources;
    this.now = o.now;
    this.running = o.running;
    this.since = o.since;
  }

  /** Whether anything can acquire: the simulator, or at least one data source. */
  configured(): boolean {
    return this.sim !== null || this.sources.count() > 0;
  }

  /** Switches at once (`by`: the user who asked); resolves when the new state is stored. */
  setRunning(running: boolean, by: string | null = null): Promise<void> {
    if (running === this.running) return this.stored;
    this.running = running;
    this.changedBy = by;
    this.sim?.setRunning(running);
    this.since = this.sim?.since ?? this.now();
    this.sources.setRunning(running);
    const since = this.since;
    const next = this.stored.catch(() => undefined).then(() => setRunning(this.db, running, since));
    this.stored = next;
    return next;
  }
}
