// The dashboard constants client code needs, without zod (it would weigh on every dashboard page).

export const WIDGET_TYPES = ["chart", "value", "gauge", "bar", "lamp", "table", "text", "alarms"] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const COLOURS = ["green", "amber", "red", "blue", "grey"] as const;
export type Colour = (typeof COLOURS)[number];
/** The quick ranges the range bars offer, and what a dashboard's stored default may be chosen from. */
export const QUICK_RANGES = ["15m", "1h", "6h", "24h", "7d", "30d"] as const;
/**
 * A dashboard's stored default range (the logger checks the same list): the quick ranges plus
 * "5m", which the first stored dashboards could have and which must stay valid.
 */
export const RANGES = ["5m", "15m", "1h", "6h", "24h", "7d", "30d"] as const;
/** Every preset a URL may name. */
export const URL_RANGES = ["5m", "15m", "1h", "6h", "24h", "7d", "30d"] as const;
export type RangePreset = (typeof URL_RANGES)[number];
export const REFRESH = ["off", "5s", "10s", "30s", "1m", "5m"] as const;
export type RefreshInterval = (typeof REFRESH)[number];

export const RANGE_MS: Record<RangePreset, number> = { "5m": 300_000, "15m": 900_000, "1h": 3_600_000, "6h": 21_600_000, "24h": 86_400_000, "7d": 604_800_000, "30d": 2_592_000_000 };
export const REFRESH_MS: Record<RefreshInterval, number> = { off: 0, "5s": 5_000, "10s": 10_000, "30s": 30_000, "1m": 60_000, "5m": 300_000 };
export const MAX_VARIABLES = 8;
export const MAX_WIDGETS = 64;
/** Alarm severities, most severe first (the logger's AlarmAPI); an alarm list shows from MinSeverity up. */
export const ALARM_SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];
/** Rows an alarm list shows by default, and at most. */
export const ALARM_ROWS_DEFAULT = 10;
export const ALARM_ROWS_MAX = 100;
