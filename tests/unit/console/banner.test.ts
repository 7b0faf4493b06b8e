import { describe, expect, it } from "vitest";
import { activeMaintenance, bannerVisible, dismiss, SUPPRESS_AT, type MaintenanceMessage } from "~/services/banner";

let id = 0;
const msg = (Topic: string, arg: string, Text = "Maintenance tonight", Type = "Warning", Sender = "Maintainer"): MaintenanceMessage => ({ ID: ++id, Sender, Topic, Type, Text, Args: [arg] });

describe("activeMaintenance", () => {
  it("shows the latest Start without a later Stop on the same topic", () => {
    const start = msg("a", "Start");
    expect(activeMaintenance([start])).toEqual({ text: "Maintenance tonight", severity: "warning" });
    expect(activeMaintenance([msg("a", "Stop"), start])).toBeNull();
  });
  it("ignores a Stop on another topic and other senders", () => {
    const start = msg("a", "Start", "db upgrade", "Error");
    expect(activeMaintenance([msg("b", "Stop"), msg("a", "Stop", "x", "Info", "Someone"), start].reverse())).toEqual({ text: "db upgrade", severity: "error" });
  });
  it("takes the severity from Type, default warning", () => {
    expect(activeMaintenance([msg("a", "Start", "t", "Info")])?.severity).toBe("info");
    expect(activeMaintenance([msg("a", "Start", "t", "Success")])?.severity).toBe("success");
    expect(activeMaintenance([msg("a", "Start", "t", "Strange")])?.severity).toBe("warning");
  });
  it("is empty without messages", () => {
    expect(activeMaintenance([])).toBeNull();
  });
});

describe("dismissals (spec §4, §9)", () => {
  const banner = { text: "Maintenance tonight", severity: "warning" as const };
  it("shows the same text three times in total, one per browser session, then suppresses it", () => {
    let info = null;
    let shown = 0;
    for (let session = 0; session < 6; session++) {
      let closed: string | null = null; // a new browser session has closed nothing yet
      if (bannerVisible(banner, info, closed)) {
        shown++;
        info = dismiss(info, banner.text);
        closed = banner.text;
        expect(bannerVisible(banner, info, closed)).toBe(false);
      }
    }
    expect(shown).toBe(3);
    expect(info).toMatchObject({ Text: banner.text, Count: SUPPRESS_AT });
    expect(SUPPRESS_AT).toBe(2);
  });
  it("starts the count at 0 and has no timed hide", () => {
    const info = dismiss(null, banner.text);
    expect(info).toEqual({ Text: banner.text, Count: 0 });
    expect(bannerVisible(banner, info, null)).toBe(true);
    expect(bannerVisible(banner, dismiss(info, banner.text), null)).toBe(true);
  });
  it("is suppressed when the count reaches 2 for the same text", () => {
    expect(bannerVisible(banner, { Text: banner.text, Count: 1 }, null)).toBe(true);
    expect(bannerVisible(banner, { Text: banner.text, Count: 2 }, null)).toBe(false);
  });
  it("starts counting again for a new text", () => {
    const info = dismiss(dismiss(dismiss(null, "old"), "old"), "old");
    expect(bannerVisible({ text: "old", severity: "info" }, info, null)).toBe(false);
    expect(bannerVisible({ text: "new", severity: "info" }, info, "old")).toBe(true);
    expect(dismiss(info, "new").Count).toBe(0);
  });
});
