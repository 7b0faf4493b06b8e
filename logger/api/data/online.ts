import { z } from "zod";
import { findVariable } from "../../model/context.ts";
import { notFound } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRoute } from "../../http/rest.ts";
import { f32 } from "../../store/series/query.ts";
import { OutputValue, OutputVariables, writeOutputs } from "./outputs.ts";

const OnlineData = z.object({
  Variables: OutputVariables,
  Function: z.enum(["read", "write"]).default("read"),
  Values: z.array(OutputValue).optional(),
});

export const onlineRoutes: RestRoute[] = [
  {
    method: "POST",
    pattern: /^\/online\/data$/,
    handler: async (r) => {
      const p = await r.input(OnlineData);
      const data = r.ctx.data;
      if (p.Function === "read") {
        const values: (number | null)[] = [];
        const times: (number | null)[] = [];
        // Loggia: the last value each variable had, kept while it has none (a stopped project, a
        // disconnected device), so a reader can show it aged instead of a blank.
        const lastValues: (number | null)[] = [];
        const lastTimes: (number | null)[] = [];
        for (const id of p.Variables) {
          if (!findVariable(data, id)) throw notFound(`Unknown variable ${id}`);
          const e = data.live.get(id);
          values.push(e && e.v !== null ? f32(e.v) : null);
          times.push(e?.t ?? null);
          const last = data.live.last(id);
          lastValues.push(last ? f32(last.v) : null);
          lastTimes.push(last?.t ?? null);
        }
        return sendData(r.res, { Values: values, Timestamps: times, LastValues: lastValues, LastTimestamps: lastTimes });
      }

      sendData(r.res, await writeOutputs(data, r.caller, p.Variables, p.Values, r.audit));
    },
  },
];
