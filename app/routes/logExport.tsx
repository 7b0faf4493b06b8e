import { csvText } from "~/services/csv";
import { stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { messagesAnswer } from "~/services/logger/schemas";
import { readMessageFilter } from "~/services/messages-query.server";
import type { Route } from "./+types/logExport";

// CSV of the Log Messages filter (all pages, up to the spec's fetch limit of 5000).
const MAX = 5000;

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "log");
  const { params } = await readMessageFilter(args.context, args.request, args.url);
  const { Messages } = await stateOf(args.context).logger.rpc("GI.system/MessagingAPI.GetMessages", { ...params, Limit: MAX, Offset: 0 }, messagesAnswer);
  const rows = [["Timestamp", "Sender", "Topic", "Type", "Text", "Args"], ...Messages.map((m) => [m.Timestamp, m.Sender, m.Topic, m.Type, m.Text, m.Args.join(" ")])];
  return new Response(csvText(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="messages-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
