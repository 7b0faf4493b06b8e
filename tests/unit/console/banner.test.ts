import { describe, expect, it } from "vitest";
import { activeMaintenance, bannerVisible, dismiss, DISMISS_HIDE_MS, type MaintenanceMessage } from "~/services/banner";

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

describe("dismissals", () => {
  const banner = { text: "Maintenance tonight", severity: "warning" as const };
  it("shows the same text three times in total, then suppresses it", () => {
    let now = 1_000;
    let info = null;
    let shown = 0;
    for (let round = 0; round < 5; round++) {
      if (bannerVisible(banner, info, now)) {
        shown++;
        info = dismiss(info, banner.text, now);
      }
      now += DISMISS_HIDE_MS + 1;
    }
    expect(shown).toBe(3);
    expect(info).toMatchObject({ Text: banner.text, Count: 2 });
  });
  it("hides the banner right after a dismissal", () => {
    const info = dismiss(null, banner.text, 0);
    expect(info.Count).toBe(0);
    expect(bannerVisible(banner, info, 10)).toBe(false);
    expect(bannerVisible(banner, info, DISMISS_HIDE_MS)).toBe(true);
  });
  it("starts counting again for a new text", () => {
    const info = dismiss(dismiss(dismiss(null, "old", 0), "old", 0), "old", 0);
    expect(bannerVisible({ text: "old", severity: "info" }, info, DISMISS_HIDE_MS * 10)).toBe(false);
    expect(bannerVisible({ text: "new", severity: "info" }, info, 0)).toBe(true);
    expect(dismiss(info, "new", 0).Count).toBe(0);
  });
});
