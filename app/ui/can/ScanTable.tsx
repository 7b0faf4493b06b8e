import type { CanScanRow } from "~/services/logger/canSchemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

/** The frames seen on the bus: ID, length, count, rate and payload with the changed bytes marked. */
export function ScanTable({ rows, windowMs }: { rows: CanScanRow[]; windowMs: number }) {
  const t = useT();
  const { number } = useFormatters();
  return (
    <section className="flex min-w-0 flex-col gap-2" aria-labelledby="can-scan-title">
      <h2 id="can-scan-title" className="text-lg font-semibold">
        {t("can.scanTitle")} <span className="text-sm font-normal text-slate-600 dark:text-slate-300">{t("can.scanHint", { seconds: number(windowMs / 1000) })}</span>
      </h2>
      <DataTable
        label={t("can.scanTitle")}
        testId="can-scan"
        columns={[
          { label: t("can.columns.id") },
          { label: t("can.columns.dlc"), align: "end" },
          { label: t("can.columns.count"), align: "end" },
          { label: t("can.columns.rate"), align: "end" },
          { label: t("can.columns.payload") },
        ]}
        empty={rows.length === 0 ? t("can.noFrames") : undefined}
      >
        {rows.map((r) => (
          <Row key={`${r.Extended ? "x" : "s"}${r.ID}`} data-can-id={r.IDHex}>
            <Cell className="font-mono whitespace-nowrap">
              0x{r.IDHex}
              {r.Extended && <span className="ml-2 rounded bg-slate-200 px-1 text-xs dark:bg-slate-600">{t("can.extended")}</span>}
            </Cell>
            <Cell className="text-right tabular-nums">{number(r.DLC)}</Cell>
            <Cell className="text-right tabular-nums" data-testid="can-count">
              {number(r.Count)}
            </Cell>
            <Cell className="text-right tabular-nums whitespace-nowrap">{r.RateHz === null ? "—" : t("can.rate", { rate: number(r.RateHz, 1) })}</Cell>
            <Cell className="font-mono whitespace-nowrap" data-testid="can-payload">
              {r.Payload.split(" ")
                .filter(Boolean)
                .map((b, i) =>
                  r.Changed[i] ? (
                    <mark key={i} className="mr-1 rounded bg-amber-200 px-0.5 text-slate-900" title={t("can.changedByte")} data-changed="true">
                      {b}
                    </mark>
                  ) : (
                    <span key={i} className="mr-1 px-0.5">
                      {b}
                    </span>
                  ),
                )}
            </Cell>
          </Row>
        ))}
      </DataTable>
    </section>
  );
}
