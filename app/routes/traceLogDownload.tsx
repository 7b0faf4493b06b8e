import { stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { TRACE_LEVELS, traceAnswer } from "~/services/logger/schemas";
import type { Route } from "./+types/traceLogDownload";

// The logger's trace as a plain text file, oldest first: time, level, component, message.
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "traceLog");
  const asked = args.url.searchParams.get("level") ?? "debug";
  const level = (TRACE_LEVELS as readonly string[]).includes(asked) ? asked : "debug";
  const { Entries } = await stateOf(args.context).logger.rpc("TraceAPI.GetEntries", { Level: level, Since: 0, Limit: 5000 }, traceAnswer);
  const text = Entries.map((e) => `${e.Time} ${e.Level.toUpperCase().padEnd(5)} [${e.Component}] ${e.Message}`).join("\n");
  return new Response(`${text}\n`, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="trace-${new Date().toISOString().slice(0, 19).replace(/:/g, "-")}.log"`,
      "Cache-Control": "no-store",
    },
  });
}
