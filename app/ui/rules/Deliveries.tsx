import type { z } from "zod";
import type { deliveriesAnswer } from "~/services/logger/schemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

type Delivery = z.output<typeof deliveriesAnswer>["Deliveries"][number];

/** The latest notification deliveries and how they went. */
export function Deliveries({ deliveries }: { deliveries: Delivery[] }) {
  const t = useT();
  const { dateTime } = useFormatters();
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <h2 id="deliveries-title" className="text-lg font-semibold">
        {t("rules.deliveriesTitle")}
      </h2>
      <DataTable label={t("rules.deliveriesTitle")} testId="deliveries-table" columns={["time", "target", "event", "status", "attempts", "error"].map((c) => ({ label: t(`rules.columns.${c}`) }))} empty={deliveries.length === 0 ? t("rules.noDeliveries") : undefined}>
        {deliveries.map((d) => (
          <Row key={d.ID} data-delivery-status={d.Status}>
            <Cell className="whitespace-nowrap">{dateTime(d.Updated)}</Cell>
            <Cell>{d.TargetName}</Cell>
            <Cell>{t(`rules.deliveryEvent.${d.Event}`, { defaultValue: d.Event })}</Cell>
            <Cell>{t(`rules.deliveryStatus.${d.Status}`, { defaultValue: d.Status })}</Cell>
            <Cell>{d.Attempts}</Cell>
            <Cell className="text-xs text-red-700 dark:text-red-400">{d.LastError}</Cell>
          </Row>
        ))}
      </DataTable>
    </section>
  );
}
