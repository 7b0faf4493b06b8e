/** Latest value of every live variable, with a version that moves whenever any value does. */
export class LiveValues {
  private readonly values = new Map<string, { v: number | null; t: number }>();
  /** The last sample that was a value, kept when the value goes away (stop, disconnect, channel off). */
  private readonly held = new Map<string, { v: number; t: number }>();
  version = 0;
  updated = 0;

  set(id: string, v: number | null, t: number): void {
    this.values.set(id, { v, t });
    if (v !== null && !Number.isNaN(v)) this.held.set(id, { v, t });
  }

  /** The last value the variable had and when it was sampled (a reader keeps showing it, aged). */
  last(id: string): { v: number; t: number } | undefined {
    return this.held.get(id);
  }

  /** Marks a batch of set() calls as one change (what the stream pushes). */
  commit(t: number): void {
    this.version++;
    this.updated = t;
  }

  get(id: string): { v: number | null; t: number } | undefined {
    return this.values.get(id);
  }

  /** No current value any more (acquisition stopped); last() keeps what they were. */
  clear(t: number): void {
    for (const e of this.values.values()) {
      e.v = null;
      e.t = t;
    }
    this.commit(t);
  }
}
