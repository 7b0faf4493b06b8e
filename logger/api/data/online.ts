import { z } from "zod";
import { findVariable } from "../../model/context.ts";
import { invalidParam, notFound, refused } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRoute } from "../../http/rest.ts";
import { f32 } from "../../store/series/query.ts";

const OnlineData = z.object({
  Variables: z.array(z.string().min(1).max(100)).min(1).max(1000),
  Function: z.enum(["read", "write"]).default("read"),
  Values: z.array(z.union([z.number().refine(Number.isFinite, { message: "Must be a finite number" }), z.boolean()])).optional(),
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
        for (const id of p.Variables) {
          if (!findVariable(data, id)) throw notFound(`Unknown variable ${id}`);
          const e = data.live.get(id);
          values.push(e && e.v !== null ? f32(e.v) : null);
          times.push(e?.t ?? null);
        }
        return sendData(r.res, { Values: values, Timestamps: times });
      }

      r.require("ManageProject");
      if (!p.Values || p.Values.length !== p.Variables.length) {
        throw invalidParam("Invalid parameter Values: give one value per variable");
      }
      const sim = data.sim;
      const writes = p.Variables.map((id, i) => {
        const v = findVariable(data, id);
        if (!v) throw notFound(`Unknown variable ${id}`);
        if (v.Direction !== "O") throw invalidParam(`Variable ${v.Name} is an input; only outputs can be written`);
        const raw = p.Values![i]!;
        const value = typeof raw === "boolean" ? Number(raw) : raw;
        if (v.DataFormat === "BOOL" && value !== 0 && value !== 1) throw invalidParam(`Variable ${v.Name} is BOOL: write 0, 1, true or false`);
        if (value < v.RangeMin || value > v.RangeMax) throw invalidParam(`Variable ${v.Name} accepts ${v.RangeMin}–${v.RangeMax}`);
        return { v, value };
      });
      if (!sim) throw refused("No acquisition is configured");
      for (const w of writes) {
        sim.writeOutput(w.v.Id, w.value);
        r.audit(`Set output ${w.v.Name} = ${w.value}`);
      }
      const now = data.now();
      sendData(r.res, { Values: writes.map((w) => w.value), Timestamps: writes.map(() => now) });
    },
  },
];
