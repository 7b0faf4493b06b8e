import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { configSchema } from "~/schemas/config";

// The Simple Config form as the action reads it: a plain HTML form post (strings only).
function post(fields: Record<string, string>, channels: Array<Record<string, string>>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ revision: "3", sampleRate: "100", projectName: "Cell", ...fields })) fd.append(k, v);
  channels.forEach((c, i) => {
    for (const [k, v] of Object.entries(c)) fd.append(`channels[${i}].${k}`, v);
  });
  return parseWithZod(fd, { schema: configSchema });
}
const row = (id: string, name: string, extra: Record<string, string> = {}) => ({ id, enabled: "on", name, unit: "°C", min: "-20", max: "150", precision: "1", ...extra });

describe("Simple Config form", () => {
  it("reads numbers, checkboxes and an empty unit from the posted strings", () => {
    const s = post({}, [row("a", " Oil "), { id: "b", name: "Speed", unit: "", min: "0", max: "6000.5", precision: "0" }]);
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(s.value).toEqual({
      projectName: "Cell",
      sampleRate: 100,
      revision: 3,
      channels: [
        { id: "a", enabled: true, name: "Oil", unit: "°C", min: -20, max: 150, precision: 1 },
        { id: "b", enabled: false, name: "Speed", unit: undefined, min: 0, max: 6000.5, precision: 0 },
      ],
    });
  });

  it("reports every problem at once, next to its field", () => {
    const s = post({ projectName: "" }, [row("a", "Oil"), row("b", "OIL"), row("c", "x".repeat(65)), row("d", "Fan", { min: "5", max: "5", precision: "7" }), row("e", "Pump", { min: "1,5" })]);
    expect(s.status).toBe("error");
    if (s.status !== "error") return;
    expect(s.error).toEqual({
      projectName: ["config.validation.projectNameRequired"],
      "channels[1].name": ["config.validation.duplicateName"],
      "channels[2].name": ["config.validation.nameTooLong"],
      "channels[3].max": ["config.validation.range"],
      "channels[3].precision": ["config.validation.precision"],
      "channels[4].min": ["config.validation.number"],
    });
  });
});
