// The operator's dashboard the benchmarks load (bench/dashboard.ts, dashboardProfile.ts,
// heavy-readers.ts): 4 charts (one of 8 variables), a value with sparkline, a gauge, a lamp and a
// table, over the last hour — one definition, so their figures stay comparable.

type Variable = { Id: string; Name: string };

/** Saves the dashboard on the logger as the given token's user; resolves to its ID. */
export async function saveBenchDashboard(loggerUrl: string, token: string, vars: Variable[]): Promise<string> {
  const ids = vars.map((v) => v.Id);
  const chart = (ID: string, X: number, Y: number, Variables: string[]) => ({ ID, Type: "chart", X, Y, W: 6, H: 4, Variables });
  const Dashboard = {
    Name: "Bench",
    Content: {
      Range: "1h",
      Refresh: "off",
      Widgets: [
        chart("c1", 0, 0, ids.slice(0, 8)),
        chart("c2", 6, 0, ids.slice(8, 10)),
        chart("c3", 0, 4, ids.slice(10, 12)),
        chart("c4", 6, 4, ids.slice(12, 14)),
        { ID: "v", Type: "value", X: 0, Y: 8, W: 3, H: 2, Variables: [ids[14]], Options: { Sparkline: true } },
        { ID: "g", Type: "gauge", X: 3, Y: 8, W: 3, H: 2, Variables: [ids[4]] },
        { ID: "l", Type: "lamp", X: 6, Y: 8, W: 3, H: 2, Variables: [vars.find((v) => v.Name === "Pump running")!.Id] },
        { ID: "t", Type: "table", X: 9, Y: 8, W: 3, H: 2, Variables: ids.slice(0, 4) },
      ],
    },
  };
  const res = await fetch(`${loggerUrl}/rpc/WebUIAPI.SaveDashboard`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ Dashboard }),
  });
  const out = (await res.json()) as { ID?: string; ReturnState?: { Description?: string } };
  if (!res.ok || !out.ID) throw new Error(`WebUIAPI.SaveDashboard: ${res.status} ${out.ReturnState?.Description ?? ""}`);
  return out.ID;
}
