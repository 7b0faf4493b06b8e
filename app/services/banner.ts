// Maintenance banner (spec §4, §9), pure so the rules are testable.

export interface MaintenanceMessage {
  ID: number;
  Sender: string;
  Topic: string;
  Type: string;
  Text: string;
  Args: string[];
}
export type Severity = "error" | "warning" | "info" | "success";
export interface Banner {
  text: string;
  severity: Severity;
}
/** What the browser remembers about dismissals (spec §3: Count, Text). */
export interface MaintenanceInfo {
  Text: string;
  Count: number;
  /** Until when the last dismissal hides the banner (epoch ms). */
  HiddenUntil: number;
}

export const MAINTAINER = "Maintainer";
/** Spec §9: suppressed once the count of the same text reaches 2. */
export const SUPPRESS_AT = 2;
/** A dismissal hides the banner for a while; it then comes back until suppressed. */
export const DISMISS_HIDE_MS = 60 * 60 * 1000;

const SEVERITY: Record<string, Severity> = { Error: "error", Warning: "warning", Info: "info", Success: "success" };

/** The newest Maintainer Start that no later Stop on the same topic ended. */
export function activeMaintenanceStart<M extends MaintenanceMessage>(messages: readonly M[]): M | null {
  const ordered = messages.filter((m) => m.Sender === MAINTAINER).toSorted((a, b) => b.ID - a.ID);
  const start = ordered.find((m) => m.Args[0] === "Start");
  if (!start) return null;
  const stopped = ordered.some((m) => m.ID > start.ID && m.Topic === start.Topic && m.Args[0] === "Stop");
  return stopped ? null : start;
}

export function activeMaintenance(messages: readonly MaintenanceMessage[]): Banner | null {
  const start = activeMaintenanceStart(messages);
  return start && { text: start.Text, severity: SEVERITY[start.Type] ?? "warning" };
}

export function bannerVisible(banner: Banner | null, info: MaintenanceInfo | null, now: number): boolean {
  if (!banner) return false;
  if (!info || info.Text !== banner.text) return true;
  return info.Count < SUPPRESS_AT && now >= info.HiddenUntil;
}

/** Count starts at 0 on the first dismissal of a text and grows with each further one. */
export function dismiss(info: MaintenanceInfo | null, text: string, now: number): MaintenanceInfo {
  const count = info && info.Text === text ? info.Count + 1 : 0;
  return { Text: text, Count: count, HiddenUntil: now + DISMISS_HIDE_MS };
}
