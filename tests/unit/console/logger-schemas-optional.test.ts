import { describe, expect, it } from "vitest";
import { measurementsAnswer, sourceVariablesAnswer, timeSeriesAnswer } from "~/services/logger/schemas";

// The contract's `?` fields (LOGGER-API.md, "Data") may be absent or null: a logger of the
// family that sends null for one must not make the console refuse the whole answer.

describe("the console's data schemas and the contract's optional fields", () => {
  it("accept null for GQLId?, a measurement's Name?, AvailableTimeSec?, Index?, Kind?, StartDate?, MetaData? and Updating?", () => {
    const vars = sourceVariablesAnswer.parse({ Success: true, Data: [{ Id: "v1", Name: "Level", Index: 0, Unit: "m", DataFormat: "FLOAT", GQLId: null }] });
    expect(vars.Data[0]!.Name).toBe("Level");

    const variable = { Id: "v1", Name: "Level", DataFormat: "FLOAT", Direction: "I", Type: "Analog", Index: 0, IndexIn: 0, IndexOut: -1, Precision: 2, RangeMin: 0, RangeMax: 5, Unit: "m" };
    const listed = measurementsAnswer.parse({
      Success: true,
      Data: [{ Id: 7, Name: null, AbsoluteStart: 1000, LastTimeStamp: 5000, SampleRateHz: 1, SourceId: "s1", AvailableTimeSec: null, Index: null, Kind: null, StartDate: null, MetaData: null, Variables: [variable] }],
    });
    expect(listed.Data[0]).toEqual({ ID: "7", Name: "7", Start: 1000, End: 5000, SourceId: "s1", Variables: ["v1"], MetaData: [], MatchedOn: undefined, Kind: "Measurement" });

    const series = timeSeriesAnswer.parse({
      Success: true,
      Data: [{ TimeSeries: { Type: "equidistant", Format: "json", Unit: "ms", Start: 0, AbsoluteStart: 0, Delta: 10, End: 20, Size: 2, MeasurementId: "", Updating: null, Values: [[1, null]] } }],
    });
    expect(series.Data.TimeSeries.Values).toEqual([[1, null]]);
  });
});
