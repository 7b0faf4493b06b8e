import type { SourceVariable } from "../../../logger/sources/config.ts";
import type { DriverEvents } from "../../../logger/sources/driver.ts";

// Records what a driver reports, for the drivers' unit tests and benchmarks.

export type Recorded = {
  events: DriverEvents;
  values: { index: number; value: number; timeMs: number }[];
  bad: { index: number | null; reason: string }[];
  states: { state: string; error?: string }[];
  /** The last reported state ("" before any). */
  state(): string;
  /** The last value of a variable, undefined before any. */
  last(index: number): number | undefined;
  valuesOf(index: number): number[];
};

export function recordEvents(): Recorded {
  const values: Recorded["values"] = [];
  const bad: Recorded["bad"] = [];
  const states: Recorded["states"] = [];
  return {
    values,
    bad,
    states,
    events: {
      value: (index, value, timeMs) => void values.push({ index, value, timeMs }),
      bad: (index, reason) => void bad.push({ index, reason }),
      state: (state, error) => void states.push(error === undefined ? { state } : { state, error }),
    },
    state: () => states.at(-1)?.state ?? "",
    last: (index) => values.findLast((v) => v.index === index)?.value,
    valuesOf: (index) => values.filter((v) => v.index === index).map((v) => v.value),
  };
}

/** A variable of a driver test's source: range 0…100, two decimals, no unit. */
export const testVariable = <A>(Name: string, Address: A, Direction: "I" | "O" | "IO" = "I"): SourceVariable<A> => ({
  VariableId: "",
  Name,
  Unit: "",
  RangeMin: 0,
  RangeMax: 100,
  Precision: 2,
  Direction,
  Address,
});
