import { FEATURES, type Feature } from "~/features";

export interface GateInput {
  /** The urls map of ConstantsLocal.json. */
  urls: Record<string, string>;
  loginRequired: boolean;
  permissions: readonly string[];
  /** Global settings Features list, used when no login is required. */
  features: readonly string[];
  controller: boolean;
}

/** "absent": the route does not exist for this system (404); "forbidden": 403. */
export type Gate = "ok" | "absent" | "forbidden";

/** Spec §6: the URL map must list the feature; then permission (login) or Features list (no login). */
export function gateFeature(feature: Feature, input: GateInput): Gate {
  if (feature.serviceOnly && input.controller) return "absent";
  if (!feature.always && !(feature.key in input.urls)) return "absent";
  if (feature.always) return "ok";
  // No login: every screen but the always-present ones has its switch in the Features list
  // (issue 15 §9), also those that need no permission when signing in.
  if (!input.loginRequired) return input.features.includes(feature.key) ? "ok" : "absent";
  if (!feature.permission) return "ok";
  return input.permissions.includes(feature.permission) ? "ok" : "forbidden";
}

/** Menu entries the caller may use: built screens that pass the gate, in table order. */
export function visibleFeatures(input: GateInput): Feature[] {
  return FEATURES.filter((f) => f.module && f.group && gateFeature(f, input) === "ok").filter(
    // Spec §6: the user section shows only when login is required.
    (f) => input.loginRequired || f.group !== "user",
  );
}
