import { describe, expect, it } from "vitest";
import { FEATURES, featureByKey, PERMISSIONS } from "~/features";
import { gateFeature, visibleFeatures, type GateInput } from "~/services/gating";
import constants from "../../../public/resources/ConstantsLocal.json";

const base: GateInput = { urls: constants.urls, loginRequired: true, permissions: [], features: [], controller: false };

describe("feature table", () => {
  it("declares every spec §6 permission and unique keys and paths", () => {
    const used = new Set(FEATURES.map((f) => f.permission).filter(Boolean));
    for (const p of PERMISSIONS) expect(used.has(p), p).toBe(true);
    expect(new Set(FEATURES.map((f) => f.key)).size).toBe(FEATURES.length);
    expect(new Set(FEATURES.map((f) => f.path)).size).toBe(FEATURES.length);
  });
  it("has a URL map entry for every feature", () => {
    for (const f of FEATURES) expect(f.key in constants.urls, f.key).toBe(true);
  });
});

describe("gateFeature", () => {
  it("requires the permission when login is required", () => {
    expect(gateFeature(featureByKey("userManagement"), base)).toBe("forbidden");
    expect(gateFeature(featureByKey("userManagement"), { ...base, permissions: ["ManageUsers"] })).toBe("ok");
  });
  it("needs no permission for About, Trace log, CAN scanner, VNC view, Changelog", () => {
    for (const key of ["versionInfo", "traceLog", "canscanner", "vncview", "changelogUI", "settings"]) {
      expect(gateFeature(featureByKey(key), base), key).toBe("ok");
    }
  });
  it("uses the Features list when no login is required", () => {
    const noLogin = { ...base, loginRequired: false, features: ["analytics"] };
    expect(gateFeature(featureByKey("analytics"), noLogin)).toBe("ok");
    expect(gateFeature(featureByKey("export"), noLogin)).toBe("absent");
    expect(gateFeature(featureByKey("versionInfo"), noLogin)).toBe("ok");
  });
  it("drops features the URL map does not list, except the always-present ones", () => {
    const urls = { analytics: "/analytics" };
    expect(gateFeature(featureByKey("export"), { ...base, urls, permissions: ["UseExport"] })).toBe("absent");
    expect(gateFeature(featureByKey("versionInfo"), { ...base, urls })).toBe("ok");
    expect(gateFeature(featureByKey("settings"), { ...base, urls })).toBe("ok");
  });
  it("hides Help on a controller or without a help URL", () => {
    expect(gateFeature(featureByKey("help"), base)).toBe("ok");
    expect(gateFeature(featureByKey("help"), { ...base, controller: true })).toBe("absent");
    const { help: _help, ...urls } = constants.urls;
    expect(gateFeature(featureByKey("help"), { ...base, urls })).toBe("absent");
  });
});

describe("visibleFeatures", () => {
  it("lists only built, permitted screens and no user section without login", () => {
    const keys = (input: GateInput) => visibleFeatures(input).map((f) => f.key);
    expect(keys({ ...base, permissions: ["ViewDevices"] })).toContain("devices");
    expect(keys({ ...base, permissions: [] })).not.toContain("devices");
    expect(keys({ ...base, permissions: [] })).toContain("settings");
    expect(keys({ ...base, loginRequired: false, features: ["devices"] })).not.toContain("settings");
    for (const f of visibleFeatures({ ...base, permissions: [...PERMISSIONS] })) expect(f.module, f.key).toBeTruthy();
  });
});
