import { z } from "zod";
import type { Caller } from "../registry.ts";
import type { DataContext } from "../../model/context.ts";
import { findVariable } from "../../model/context.ts";
import { forbidden, invalidParam, notFound, refused } from "../../http/errors.ts";

// One write path for outputs, shared by `POST /online/data {Function: "write"}` and the live
// WebSocket's write frame, so both refuse and accept exactly the same requests. Outputs of the
// simulator are set at once; outputs of a data source go to its driver (decision 0010), so a
// request holding one answers when the device has taken the value. Either answers only once the
// audit message is stored: a client that reads the audit log right after its write finds it.

export const OutputValue = z.union([z.number().refine(Number.isFinite, { message: "Must be a finite number" }), z.boolean()]);
export const OutputVariables = z.array(z.string().min(1).max(100)).min(1).max(1000);

export type OutputWriteResult = { Values: number[]; Timestamps: number[] };

export async function writeOutputs(
  data: DataContext,
  caller: Caller,
  variables: readonly string[],
  values: readonly (number | boolean)[] | undefined,
  audit: (text: string) => Promise<void>,
): Promise<OutputWriteResult> {
  if (!caller.permissions.has("ManageProject")) throw forbidden("Permission denied: ManageProject required");
  if (!values || values.length !== variables.length) {
    throw invalidParam("Invalid parameter Values: give one value per variable");
  }
  // Every value is checked before any is written: a refused request changes nothing.
  const writes = variables.map((id, i) => {
    const v = findVariable(data, id);
    if (!v) throw notFound(`Unknown variable ${id}`);
    if (v.Direction === "I") throw invalidParam(`Variable ${v.Name} is an input; only outputs can be written`);
    const raw = values[i]!;
    const value = typeof raw === "boolean" ? Number(raw) : raw;
    if (v.DataFormat === "BOOL" && value !== 0 && value !== 1) throw invalidParam(`Variable ${v.Name} is BOOL: write 0, 1, true or false`);
    if (value < v.RangeMin || value > v.RangeMax) throw invalidParam(`Variable ${v.Name} accepts ${v.RangeMin}–${v.RangeMax}`);
    return { v, value };
  });
  const answer = (): OutputWriteResult => {
    const now = data.now();
    return { Values: writes.map((w) => w.value), Timestamps: writes.map(() => now) };
  };
  const sim = data.sim;
  if (!sim && !writes.every((w) => data.sources.owns(w.v.Id))) throw refused("No acquisition is configured");
  // The value is on the output whether or not its audit message could be stored (the store may be
  // away; auditAs then logs to the trace), so the answer says it was written either way.
  const audited = (w: (typeof writes)[number]) => audit(`Set output ${w.v.Name} = ${w.value}`).catch(() => undefined);
  // In order, stopping at the first failure: the error names it, the ones before stay written.
  for (const w of writes) {
    if (data.sources.owns(w.v.Id)) {
      try {
        await data.sources.write(w.v.Id, w.value);
      } catch (err) {
        throw refused((err as Error).message);
      }
    } else {
      sim!.writeOutput(w.v.Id, w.value);
    }
    await audited(w);
  }
  return answer();
}
