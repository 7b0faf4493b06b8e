import type { TFunction } from "i18next";
import { useT } from "./useT";

// The embedded logger's demo content — written in English when it seeds a new installation
// (logger/store/seed.ts, seed-dashboards.ts, device-locations.ts, CSV import) — shown in the
// reader's language (issue 28 §5): each text exactly as seeded has a key here; a text anyone has
// changed is theirs and shown as it is. Applied where the content is shown, never in the forms
// that edit it (those keep the stored words, so a save never turns them into a translation).

const SEEDED: Record<string, string> = {
  // Dashboards, their widget titles and lamp labels.
  "Test cell dashboard": "testCell",
  "Energy and weather dashboard": "energyWeather",
  Temperatures: "temperatures",
  Pressures: "pressures",
  "Strain gauges": "strainGauges",
  Supply: "supply",
  Weather: "weather",
  "Weather now": "weatherNow",
  Stopped: "stopped",
  Running: "running",
  Open: "open",
  Closed: "closed",
  "**Engine test cell**, Modena: bench controller at full rate, supply meter and roof weather station. Report anomalies to the *shift lead*.": "testCellNotes",
  // Role descriptions.
  "Full access, including users, roles and global settings": "roleAdministrator",
  "Runs the plant: dashboards, analytics, export, devices, rules and the project": "roleOperator",
  "Looks at structure, map, dashboards, analytics and devices": "roleViewer",
  // Metadata keys and values the logger writes.
  Latitude: "latitude",
  Longitude: "longitude",
  Site: "site",
  Origin: "origin",
  Rows: "rows",
  "CSV import": "csvImport",
  // The messages the logger writes when it seeds (Log Messages, the header's popover).
  "Created the database with roles Administrator, Operator, Viewer and user admin": "auditDatabase",
  "Created the demo dashboards Test cell dashboard and Energy and weather dashboard": "auditDemoDashboards",
  "Added an alarm list to the default dashboard Test cell dashboard": "auditAlarmList",
};

/** The text in the reader's language if it is demo content exactly as seeded, else as it is. */
export function seedText(t: TFunction, text: string): string {
  const key = Object.hasOwn(SEEDED, text) ? SEEDED[text] : undefined;
  return key ? t(`seed.${key}`) : text;
}

/** The parts of a dashboard's content that hold seeded words (kept structural: the shell imports this module). */
type Content = { Widgets: { Title: string; Options: { States?: { Label: string }[]; Text?: string } }[] };

/** A dashboard's content as its viewers see it: seeded titles, lamp labels and texts translated. */
export function seededContent<C extends Content>(t: TFunction, content: C): C {
  return {
    ...content,
    Widgets: content.Widgets.map((w) => ({
      ...w,
      Title: w.Title && seedText(t, w.Title),
      Options: {
        ...w.Options,
        ...(w.Options.States ? { States: w.Options.States.map((s) => ({ ...s, Label: seedText(t, s.Label) })) } : {}),
        ...(w.Options.Text ? { Text: seedText(t, w.Options.Text) } : {}),
      },
    })),
  };
}

/** seedText with the page's language, for components. */
export function useSeedText(): (text: string) => string {
  const t = useT();
  return (text) => seedText(t, text);
}
