import { Form, Link } from "react-router";
import type { CanSignal } from "~/services/logger/canSchemas";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

/** The DBC file's signals decoded from the latest frames; each can become a logger variable. */
export function SignalsTable({ signals, busy, canSeeVariables }: { signals: CanSignal[]; busy: boolean; canSeeVariables: boolean }) {
  const t = useT();
  const { value, number } = useFormatters();
  // A value scaled by the factor has the factor's decimals (0.25 → 2, 0.1 → 1), at most 6.
  const decimals = (factor: number) => (Math.abs(factor).toFixed(6).replace(/0+$/, "").split(".")[1] ?? "").length;
  return (
    <DataTable
      label={t("can.signalsTitle")}
      testId="can-signals"
      columns={[
        { label: t("can.columns.message") },
        { label: t("can.columns.signal") },
        { label: t("can.columns.value"), align: "end" },
        { label: t("can.columns.unit") },
        { label: t("can.columns.min"), align: "end" },
        { label: t("can.columns.max"), align: "end" },
        { label: t("can.columns.layout") },
        { label: t("can.columns.actions"), srOnly: true },
      ]}
      empty={signals.length === 0 ? t("can.noSignals") : undefined}
    >
          {signals.map((s) => {
            const digits = decimals(s.Factor);
            const outside = s.Value !== null && (s.Min !== 0 || s.Max !== 0) && (s.Value < s.Min || s.Value > s.Max);
            return (
              <Row key={`${s.Message}.${s.Name}`} data-signal={`${s.Message}.${s.Name}`}>
                <Cell>
                  {s.Message} <span className="font-mono text-xs text-slate-600 dark:text-slate-300">0x{s.MessageIDHex}</span>
                </Cell>
                <Cell className="font-medium">{s.Name}</Cell>
                <Cell className={`text-right tabular-nums ${outside ? "font-semibold text-red-700 dark:text-red-400" : ""}`} data-testid="can-value" title={outside ? t("can.outOfRange") : undefined}>
                  {value(s.Value, digits)}
                </Cell>
                <Cell>{s.Unit}</Cell>
                <Cell className="text-right tabular-nums">{number(s.Min)}</Cell>
                <Cell className="text-right tabular-nums">{number(s.Max)}</Cell>
                <Cell className="text-xs text-slate-600 dark:text-slate-300">
                  {t("can.layout", { start: s.StartBit, count: s.Length, order: t(s.ByteOrder === "little" ? "can.littleEndian" : "can.bigEndian"), sign: t(s.Signed ? "can.signed" : "can.unsigned"), factor: number(s.Factor), op: s.Offset < 0 ? "−" : "+", offset: number(Math.abs(s.Offset)) })}
                </Cell>
                <Cell className="text-right">
                  {s.VariableId ? (
                    canSeeVariables ? (
                      <Link to={`/variableOverview?${new URLSearchParams({ q: `${s.Message}.${s.Name}` })}`} className="text-brand hover:underline">
                        {t("can.isVariable")}
                      </Link>
                    ) : (
                      <span className="text-slate-600 dark:text-slate-300">{t("can.isVariable")}</span>
                    )
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="addVariable" />
                      <input type="hidden" name="message" value={s.Message} />
                      <input type="hidden" name="signal" value={s.Name} />
                      <button type="submit" className="text-brand hover:underline" disabled={busy} aria-label={t("can.addVariableFor", { name: `${s.Message}.${s.Name}` })}>
                        {t("can.addVariable")}
                      </button>
                    </Form>
                  )}
                </Cell>
              </Row>
            );
          })}
    </DataTable>
  );
}
