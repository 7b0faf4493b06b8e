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
}

export const MAINTAINER = "Maintainer";
/** Spec §4, §9: the count of dismissals of one text starts at 0; at 2 the text is suppressed. */
export const SUPPRESS_AT = 2;

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

/**
 * Spec §4: once dismissed, the banner is shown again with the same text (in the next browser
 * session: `closedText` is the text dismissed in this one) until it has been shown 3 times in
 * total, i.e. until the count of its dismissals reaches 2. No timer hides or brings it back.
 */
export function bannerVisible(banner: Banner | null, info: MaintenanceInfo | null, closedText: string | null): boolean {
  if (!banner) return false;
  if (closedText === banner.text) return false;
  if (!info || info.Text !== banner.text) return true;
  return info.Count < SUPPRESS_AT;
}

/** Count starts at 0 on the first dismissal of a text, grows with each further one; a new text resets it. */
export function dismiss(info: MaintenanceInfo | null, text: string): MaintenanceInfo {
  const count = info && info.Text === text ? info.Count + 1 : 0;
  return { Text: text, Count: count };
}
