import type { DashboardContent } from "../api/dashboards.ts";
import { dashboardContent } from "../api/dashboards.ts";
import type { Model } from "../model/types.ts";
import type { Db } from "./db.ts";
import { insertDashboard, setDefaultDashboard } from "./dashboards.ts";
import { audit } from "./messages.ts";

type Draft = Omit<DashboardContent["Widgets"][number], "Variables" | "Title" | "Options"> & {
  Title?: string;
  /** Variable names of the simulated rig; ids differ per simulator seed. */
  Names?: string[];
  Options?: DashboardContent["Widgets"][number]["Options"];
};

const TEST_CELL: Draft[] = [
  { ID: "notes", Type: "text", X: 0, Y: 0, W: 12, H: 1, Options: { Text: "**Engine test cell**, Modena: bench controller at full rate, supply meter and roof weather station. Report anomalies to the *shift lead*." } },
  { ID: "temperatures", Type: "chart", Title: "Temperatures", X: 0, Y: 1, W: 8, H: 4, Names: ["Oil temperature", "Coolant inlet temperature", "Coolant outlet temperature", "Bearing temperature 1"] },
  { ID: "speed", Type: "value", X: 8, Y: 1, W: 4, H: 2, Names: ["Shaft speed"], Options: { Sparkline: true, Thresholds: [{ Value: 5000, Color: "amber" }, { Value: 5800, Color: "red" }] } },
  { ID: "oil-pressure", Type: "gauge", X: 8, Y: 3, W: 2, H: 2, Names: ["Oil pressure"], Options: { Min: 0, Max: 6, Thresholds: [{ Value: 0, Color: "red" }, { Value: 1, Color: "green" }, { Value: 4.5, Color: "amber" }] } },
  { ID: "pump", Type: "lamp", X: 10, Y: 3, W: 2, H: 1, Names: ["Pump running"], Options: { States: [{ Value: 0, Label: "Stopped", Color: "grey" }, { Value: 1, Label: "Running", Color: "green" }] } },
  { ID: "door", Type: "lamp", X: 10, Y: 4, W: 2, H: 1, Names: ["Door closed"], Options: { States: [{ Value: 0, Label: "Open", Color: "red" }, { Value: 1, Label: "Closed", Color: "green" }] } },
  { ID: "pressures", Type: "chart", Title: "Pressures", X: 0, Y: 5, W: 6, H: 3, Names: ["Oil pressure", "Inlet pressure", "Outlet pressure"] },
  { ID: "hydraulics", Type: "bar", X: 6, Y: 5, W: 3, H: 3, Names: ["Hydraulic pressure"], Options: { Min: 0, Max: 250, Thresholds: [{ Value: 200, Color: "red" }] } },
  { ID: "strain", Type: "table", Title: "Strain gauges", X: 9, Y: 5, W: 3, H: 3, Names: ["Strain gauge 1", "Strain gauge 2", "Strain gauge 3", "Strain gauge 4"] },
  // Every active alarm of the rig, acknowledged ones too, so none is out of sight on the default screen (issue 15 §4).
  { ID: "alarms", Type: "alarms", Title: "", X: 0, Y: 8, W: 12, H: 3, Options: { OnlyUnacknowledged: false, MaxRows: 10 } },
];

const ENERGY_WEATHER: Draft[] = [
  { ID: "power", Type: "chart", Title: "Supply", X: 0, Y: 0, W: 8, H: 4, Names: ["Active power", "Current L1"] },
  { ID: "energy", Type: "value", X: 8, Y: 0, W: 4, H: 2, Names: ["Energy"], Options: { Precision: 1, Sparkline: true } },
  { ID: "voltage", Type: "gauge", X: 8, Y: 2, W: 4, H: 2, Names: ["Voltage L1"], Options: { Min: 200, Max: 250, Thresholds: [{ Value: 0, Color: "red" }, { Value: 215, Color: "green" }, { Value: 245, Color: "red" }] } },
  { ID: "weather", Type: "chart", Title: "Weather", X: 0, Y: 4, W: 8, H: 4, Names: ["Air temperature", "Relative humidity"] },
  { ID: "weather-now", Type: "table", Title: "Weather now", X: 8, Y: 4, W: 4, H: 4, Names: ["Air temperature", "Relative humidity", "Wind speed", "Wind direction", "Air pressure", "Solar radiation"] },
];

function build(model: Model, drafts: Draft[], range: DashboardContent["Range"], refresh: DashboardContent["Refresh"]): DashboardContent {
  const idOf = new Map(model.variables.map((v) => [v.Name, v.Id]));
  const Widgets = drafts.map(({ Names = [], ...w }) => ({
    Title: "",
    Options: {},
    ...w,
    // A rig with fewer bench channels simply lacks some; the widget then shows what is there.
    Variables: Names.map((n) => idOf.get(n)).filter((id): id is string => id !== undefined),
  }));
  return dashboardContent.parse({ Columns: 12, RowHeight: 80, Range: range, Refresh: refresh, Widgets });
}

/** Two demo dashboards for the simulated rig, on a logger that has none yet (its first start). */
export async function seedDashboards(db: Db, model: Model): Promise<boolean> {
  if (model.variables.length === 0) return false;
  return db.tx(async (q) => {
    if (await q.get("SELECT 1 FROM dashboards LIMIT 1")) return false;
    const cell = await insertDashboard(q, "Test cell dashboard", build(model, TEST_CELL, "1h", "10s"), "Logger");
    await insertDashboard(q, "Energy and weather dashboard", build(model, ENERGY_WEATHER, "24h", "1m"), "Logger");
    await setDefaultDashboard(q, cell.ID);
    await audit(q, "Logger", "Created the demo dashboards Test cell dashboard and Energy and weather dashboard");
    return true;
  });
}
