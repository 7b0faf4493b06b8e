import { describe, expect, it } from "vitest";
import { AA_RATIO, contrastRatio, DARK_TEXT, readableOn } from "~/ui/contrast";
import { buttonClass } from "~/ui/formClasses";

describe("text on theme colours", () => {
  it("measures WCAG contrast", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#777777")).toBeCloseTo(1, 5);
    // The default hover colour with white text: the 3.4:1 that failed AA.
    expect(contrastRatio("#4c85ff", "#ffffff")).toBeCloseTo(3.45, 1);
    expect(contrastRatio("nope", "#ffffff")).toBeNull();
  });

  it("keeps white on the default main colour and puts dark text on the default hover colour", () => {
    expect(readableOn("#3056a8")).toBe("#ffffff");
    expect(readableOn("#4c85ff")).toBe(DARK_TEXT);
    expect(contrastRatio("#4c85ff", readableOn("#4c85ff"))!).toBeGreaterThanOrEqual(AA_RATIO);
    expect(readableOn("#ffcc00")).toBe(DARK_TEXT);
    expect(readableOn("not a colour")).toBe("#ffffff");
    // The short and alpha forms the theme setting accepts.
    expect(readableOn("#fc0")).toBe(DARK_TEXT);
    expect(readableOn("#fc08")).toBe(DARK_TEXT);
    expect(readableOn("#ffcc0080")).toBe(DARK_TEXT);
    expect(contrastRatio("#fff", "#000000ff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#12345", "#fff")).toBeNull();
  });

  it("reaches AA on any colour a site can choose", () => {
    let worst = 21;
    for (let r = 0; r < 256; r += 15)
      for (let g = 0; g < 256; g += 15)
        for (let b = 0; b < 256; b += 15) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          worst = Math.min(worst, contrastRatio(hex, readableOn(hex))!);
        }
    expect(worst).toBeGreaterThanOrEqual(AA_RATIO);
  });

  it("draws the primary button's text, plain and hovered, in the colours chosen by contrast", () => {
    expect(buttonClass).toContain("text-on-brand");
    expect(buttonClass).toContain("hover:text-on-brand-hover");
    expect(buttonClass).not.toContain("text-white");
  });
});
