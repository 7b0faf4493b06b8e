import type { RouterContextProvider } from "react-router";
import { MESSAGE_TYPES, PAGE_SIZES } from "~/schemas/log";
import { parseWallTime } from "~/ui/dashboard/timeRange";
import { userTimeZone } from "./zoned.server";
import { readOffset } from "./forms.server";

export interface MessageFilter {
  sender: string;
  topic: string;
  type: string;
  text: string;
  from: string;
  to: string;
  limit: number;
  offset: number;
}

/**
 * The Log Messages filter from the URL, as typed (to show again) and as MessagingAPI params.
 * Times are typed in the user's zone; one that is not a date-time is an error, not ignored.
 */
export async function readMessageFilter(context: Readonly<RouterContextProvider>, request: Request, url: URL) {
  const p = url.searchParams;
  const text = (key: string, max = 256) => (p.get(key) ?? "").trim().slice(0, max);
  const limit = Number(p.get("limit"));
  const filter: MessageFilter = {
    sender: text("sender"),
    topic: text("topic"),
    type: (MESSAGE_TYPES as readonly string[]).includes(p.get("type") ?? "") ? p.get("type")! : "",
    text: text("text"),
    from: text("from", 32),
    to: text("to", 32),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : 50,
    offset: readOffset(p.get("offset")),
  };
  const errors: Record<string, string> = {};
  let From = "";
  let To = "";
  if (filter.from || filter.to) {
    const zone = await userTimeZone({ request, context });
    const read = (key: "from" | "to") => {
      if (!filter[key]) return "";
      const ms = parseWallTime(filter[key], zone);
      if (ms === null) {
        errors[key] = "log.validation.dateTime";
        return "";
      }
      // "To" names a minute; the whole minute is included.
      return new Date(key === "to" && filter[key].length === 16 ? ms + 59_999 : ms).toISOString();
    };
    From = read("from");
    To = read("to");
    if (From && To && From > To) errors.to = "log.validation.range";
  }
  const params = {
    Filter: { Sender: filter.sender, Topic: filter.topic, Type: filter.type, Text: filter.text },
    From: errors.to ? "" : From,
    To: errors.to ? "" : To,
    Limit: filter.limit,
    Offset: filter.offset,
  };
  return { filter, params, errors };
}
