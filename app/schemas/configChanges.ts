import type { ConfigOutput } from "./config";

// What a Simple Config save would change, setting by setting (issue 26 §5): the save shows old →
// new for each and asks before applying, since every change reaches the running acquisition at
// once. Client-safe: the action computes the list, the page renders it (i18n keys and values).

export interface StoredConfig {
  ProjectName: string;
  SampleRateHz: number | null;
  DeviceName: string | null;
  Channels: { VariableId: string; Enabled: boolean; Name: string; Unit: string; RangeMin: number; RangeMax: number; Precision: number }[];
}

/** One changed setting: a text key for its label (with `label` values), and the old and new value as shown. */
export interface ConfigChange {
  key: string;
  label: Record<string, string | number>;
  from: string;
  to: string;
}

/** Every setting `next` changes in `stored`, in the screen's order; numbers through `num` (the user's locale). */
export function configChanges(stored: StoredConfig, next: ConfigOutput, num: (n: number) => string, words: { on: string; off: string }): ConfigChange[] {
  const changes: ConfigChange[] = [];
  if (next.projectName !== stored.ProjectName) changes.push({ key: "config.changes.projectName", label: {}, from: stored.ProjectName, to: next.projectName });
  if (next.sampleRate !== undefined && stored.SampleRateHz !== null && next.sampleRate !== stored.SampleRateHz) {
    changes.push({ key: "config.changes.sampleRate", label: { device: stored.DeviceName ?? "" }, from: `${num(stored.SampleRateHz)} Hz`, to: `${num(next.sampleRate)} Hz` });
  }
  next.channels.forEach((c, i) => {
    const was = stored.Channels.find((s) => s.VariableId === c.id);
    if (!was) return;
    const label = { n: i + 1, name: was.Name };
    const add = (key: string, from: string, to: string) => from !== to && changes.push({ key: `config.changes.${key}`, label, from, to });
    add("enabled", was.Enabled ? words.on : words.off, c.enabled ? words.on : words.off);
    add("name", was.Name, c.name);
    add("unit", was.Unit, c.unit ?? "");
    add("range", `${num(was.RangeMin)} … ${num(was.RangeMax)}`, `${num(c.min)} … ${num(c.max)}`);
    add("precision", String(was.Precision), String(c.precision));
  });
  return changes;
}
