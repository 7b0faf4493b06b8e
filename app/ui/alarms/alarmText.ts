import type { TFunction } from "i18next";
import { formatValue } from "~/ui/format";

// An alarm's text in the reader's language and number format (issue 28 §5), from the fields the
// logger sends beside its English `Text` (docs/logger-api.md, "Fields"): the default message is
// ours to translate; a rule's own message keeps its words, with the numbers written as the reader
// writes them. Without fields (an older or external logger) the logger's text is shown as it is.

export interface AlarmFields {
  Template: string;
  Rule: string;
  Variable: string;
  Value: number | null;
  Unit: string;
  Precision: number;
  Type: string;
  High: number | null;
  Low: number | null;
  RatePerSec: number | null;
  StaleSec: number | null;
  State: number | null;
}

export interface MessageFields extends AlarmFields {
  Event: string;
  User?: string;
  Comment?: string;
  ShelvedUntil?: string | null;
}

type Say = { t: TFunction; locale: string; dateTime: (v: string) => string };

const num = (locale: string, v: number | null, digits?: number) => (v === null ? "" : formatValue(locale, v, digits));

/** The rule's limit as the reader writes numbers: "150", "-10…90", "2,5/s", "30 s". */
function limitOf(f: AlarmFields, locale: string): string {
  switch (f.Type) {
    case "high":
      return num(locale, f.High);
    case "low":
      return num(locale, f.Low);
    case "range":
      return `${num(locale, f.Low)}…${num(locale, f.High)}`;
    case "rate":
      return `${num(locale, f.RatePerSec)}/s`;
    case "stale":
      return `${num(locale, f.StaleSec)} s`;
    case "digital":
      return f.State === null ? "" : String(f.State);
    default:
      return "";
  }
}

/** The alarm's message: the rule's own template or our default, filled in for the reader. */
export function alarmText(f: AlarmFields | undefined, fallback: string, { t, locale }: Pick<Say, "t" | "locale">): string {
  if (!f) return fallback;
  const values = {
    rule: f.Rule,
    variable: f.Variable,
    value: f.Value === null ? "—" : num(locale, f.Value, f.Precision),
    unit: f.Unit,
    limit: limitOf(f, locale),
  };
  const text = f.Template
    ? f.Template.replace(/\{(rule|variable|value|unit|limit)\}/g, (_, k: keyof typeof values) => values[k])
    : t("alarmText.default", { ...values });
  return text.replace(/\s+/g, " ").trim();
}

/** An Alarming message (Log Messages, the header's popover) in the reader's language. */
export function alarmMessageText(f: MessageFields | undefined, fallback: string, say: Say): string {
  if (!f?.Event) return fallback;
  const o = { rule: f.Rule, user: f.User ?? "", comment: f.Comment ?? "" };
  const by = f.User ? "_by" : "";
  const withComment = (text: string) => (f.Comment ? t2(say.t, "alarmText.withComment", { text, comment: f.Comment }) : text);
  switch (f.Event) {
    case "Activated":
      return alarmText(f, fallback, say);
    case "Cleared":
      return f.Value === null ? say.t("alarmText.cleared", o) : say.t("alarmText.clearedValue", { ...o, value: `${num(say.locale, f.Value, f.Precision)} ${f.Unit}`.trim() });
    case "Acknowledged":
      return withComment(say.t(`alarmText.acknowledged${by}`, o));
    case "Shelved":
      return withComment(say.t(`alarmText.shelved${by}`, { ...o, until: f.ShelvedUntil ? say.dateTime(f.ShelvedUntil) : "—" }));
    case "Unshelved":
      return say.t(`alarmText.unshelved${by}`, o);
    case "ShelveExpired":
      return say.t("alarmText.shelveExpired", o);
    case "OutOfService":
      return say.t(`alarmText.outOfService${by}`, o);
    case "InService":
      return say.t(`alarmText.inService${by}`, o);
    default:
      return fallback;
  }
}

const t2 = (t: TFunction, key: string, o: Record<string, string>) => t(key, { ...o });
