import { describe, expect, it } from "vitest";
import { ageText } from "~/ui/FreshnessBadge";
import en from "~/locales/en";
import it_ from "~/locales/it";

// Issue 15 §1/§4: the age on a stale value's badge, and the header's alarm texts in both languages.
describe("ageText", () => {
  it("uses the largest whole unit, in the user's locale", () => {
    expect(ageText(900, "en-US")).toBe("0 sec");
    expect(ageText(12_400, "en-US")).toBe("12 sec");
    expect(ageText(3 * 60_000 + 5_000, "en-US")).toBe("3 min");
    expect(ageText(2 * 3_600_000, "en-US")).toBe("2 hr");
    expect(ageText(12_400, "it-IT")).toBe("12 s");
  });
  it("never shows a negative age (a clock slightly ahead)", () => {
    expect(ageText(-500, "en-US")).toBe("0 sec");
  });
});

describe("header alarm texts", () => {
  it("name active and unacknowledged counts in English and Italian", () => {
    const header = (texts: unknown) => (texts as { header: Record<string, string> }).header;
    for (const texts of [en, it_]) {
      for (const key of ["activeAlarms_one", "activeAlarms_other", "unacknowledgedAlarms_one", "unacknowledgedAlarms_other"]) expect(header(texts)[key]).toContain("{{count}}");
    }
    expect(header(it_).activeAlarms_other).toBe("{{count}} allarmi attivi");
  });
});
