import { useEffect, useState } from "react";
import { useT } from "~/ui/useT";
import { Form, Link, useFetcher, useLocation } from "react-router";
import { keptData, stateOf } from "~/services/context.server";
import { readSince } from "~/services/forms.server";
import { requireFeature } from "~/services/guards.server";
import { TRACE_LEVELS, traceAnswer, type TraceEntry } from "~/services/logger/schemas";
import { FormField, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { pageTitle } from "~/ui/title";
import { listPageClass } from "~/ui/ListPage";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import type { Route } from "./+types/traceLog";

const SHOWN = 500;
const TAIL_MS = 2000;
const LEVEL_COLOURS: Record<string, string> = {
  debug: "text-slate-500",
  info: "text-sky-700 dark:text-sky-300",
  warn: "text-amber-700 dark:text-amber-300",
  error: "text-red-700 dark:text-red-400",
};

function readLevel(params: URLSearchParams): (typeof TRACE_LEVELS)[number] {
  const level = params.get("level") ?? "info";
  return (TRACE_LEVELS as readonly string[]).includes(level) ? (level as (typeof TRACE_LEVELS)[number]) : "info";
}

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "traceLog");
  const level = readLevel(args.url.searchParams);
  const since = readSince(args.url.searchParams.get("since"));
  // The first page is kept for an outage; the tail's reads (since > 0) each differ and are not
  // kept: their 503 is held and tried again by the browser's data guard until the logger is back.
  const answer = await stateOf(args.context).logger.readFreshRpc("TraceAPI.GetEntries", { Level: level, Since: since, Limit: SHOWN }, traceAnswer, { keep: since === 0 });
  return keptData(args.context, { level, entries: answer.Entries.toReversed(), last: answer.Last });
}

export default function TraceLog({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const location = useLocation();
  const { level } = loaderData;
  const [entries, setEntries] = useState(loaderData.entries);
  const [last, setLast] = useState(loaderData.last);
  const [tail, setTail] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const fetcher = useFetcher<typeof loader>();
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    setEntries(loaderData.entries);
    setLast(loaderData.last);
  }, [loaderData]);
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || answer.level !== level) return;
    setLast(answer.last);
    if (answer.entries.length) setEntries((old) => [...answer.entries, ...old].slice(0, SHOWN * 2));
  }, [fetcher.data, level]);
  useEffect(() => {
    if (!tail) return;
    const id = setInterval(() => {
      if (fetcher.state === "idle") fetcher.load(`/traceLog?level=${level}&since=${last}`);
    }, TAIL_MS);
    return () => clearInterval(id);
  }, [tail, level, last, fetcher]);

  return (
    <section className={listPageClass}>
      <h1 className="text-2xl font-semibold">{t("nav.traceLog")}</h1>
      <div className="flex flex-wrap items-end gap-3">
        <Form method="get" className="flex items-end gap-2">
          <FormField id="trace-level" label={t("trace.level")}>
            <select id="trace-level" name="level" defaultValue={level} className={inputClass}>
              {TRACE_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {t(`trace.levels.${l}`)}
                </option>
              ))}
            </select>
          </FormField>
          <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
            {t("trace.apply")}
          </button>
        </Form>
        <Link to={`${location.pathname}?level=${level}`} reloadDocument={!hydrated} className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700" data-testid="trace-refresh">
          {t("trace.refresh")}
        </Link>
        <a href={`/traceLog/download?level=${level}`} download className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700" data-testid="trace-download">
          {t("trace.download")}
        </a>
        {hydrated && (
          <label className="flex items-center gap-2 py-2 text-sm">
            <input type="checkbox" checked={tail} onChange={(e) => setTail(e.target.checked)} data-testid="trace-tail" />
            {t("trace.tail")}
          </label>
        )}
      </div>
      <DataTable
        label={t("nav.traceLog")}
        testId="trace-table"
        dense
        columns={["time", "level", "component", "message"].map((c) => ({ label: t(`trace.columns.${c}`), className: "font-sans" }))}
        empty={entries.length === 0 ? <span className="font-sans">{t("trace.empty")}</span> : undefined}
      >
        {entries.map((e) => (
          <TraceRow key={e.Seq} entry={e} />
        ))}
      </DataTable>
    </section>
  );
}

function TraceRow({ entry: e }: { entry: TraceEntry }) {
  const t = useT();
  const { dateTime } = useFormatters();
  return (
    <Row data-level={e.Level}>
      <Cell className="whitespace-nowrap">{dateTime(e.Time)}</Cell>
      <Cell className={`font-semibold uppercase ${LEVEL_COLOURS[e.Level]}`}>{t(`trace.levels.${e.Level}`)}</Cell>
      <Cell>{e.Component}</Cell>
      <Cell className="min-w-48 break-all">{e.Message}</Cell>
    </Row>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.traceLog");
}
