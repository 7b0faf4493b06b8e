import { describe, expect, it } from "vitest";
import { FEATURES, featureByKey } from "~/features";
import { SWITCHABLE_FEATURES } from "~/schemas/globalSettings";
import { gateFeature, type GateInput } from "~/services/gating";
import constants from "../../../public/resources/ConstantsLocal.json";

const noLogin: GateInput = { urls: constants.urls, loginRequired: false, permissions: [], features: [], controller: false };

// Issue 15 §9: every screen has its entry in the global Features list, so no-login mode can switch each off.
describe("Features list", () => {
  it("offers every screen except the always-present About and User Settings", () => {
    const offered = new Set(SWITCHABLE_FEATURES.map((f) => f.key));
    for (const f of FEATURES) expect(offered.has(f.key), f.key).toBe(!f.always);
    for (const key of ["vncview", "traceLog", "canscanner", "changelogUI", "help"]) expect(offered.has(key), key).toBe(true);
  });
  it("switches off the screens that need no permission when signing in", () => {
    for (const key of ["vncview", "traceLog", "canscanner", "changelogUI", "help"]) {
      expect(gateFeature(featureByKey(key), noLogin), key).toBe("absent");
      expect(gateFeature(featureByKey(key), { ...noLogin, features: [key] }), key).toBe("ok");
      expect(gateFeature(featureByKey(key), { ...noLogin, loginRequired: true }), key).toBe("ok");
    }
  });
  it("keeps About and User Settings without an entry", () => {
    expect(gateFeature(featureByKey("versionInfo"), noLogin)).toBe("ok");
    expect(gateFeature(featureByKey("settings"), noLogin)).toBe("ok");
  });
});
