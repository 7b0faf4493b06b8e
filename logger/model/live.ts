/** Latest value of every live variable, with a version that moves whenever any value does. */
export class LiveValues {
  private readonly values = new Map<string, { v: number | null; t: number }>();
  version = 0;
  updated = 0;

  set(id: string, v: number | null, t: number): void {
    this.values.set(id, { v, t });
  }

  /** Marks a batch of set() calls as one change (what the stream pushes). */
  commit(t: number): void {
    this.version++;
    this.updated = t;
  }

  get(id: string): { v: number | null; t: number } | undefined {
    return this.values.get(id);
  }

  clear(t: number): void {
    for (const e of this.values.values()) {
      e.v = null;
      e.t = t;
    }
    this.commit(t);
  }
}
