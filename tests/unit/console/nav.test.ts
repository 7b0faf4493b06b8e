import { describe, expect, it } from "vitest";
import { buildNav, groupActive, linkMatches } from "~/ui/navTree";

const dashboards = [
  { ID: "0b7e6a1c-1234-4abc-8def-0123456789ab", Name: "Rig", IsDefault: true },
  { ID: "1b7e6a1c-1234-4abc-8def-0123456789ab", Name: "Power", IsDefault: false },
];

describe("buildNav", () => {
  it("puts the dashboard selection in the Dashboard group with the default in bold", () => {
    const nav = buildNav({ keys: ["dashboard", "devices", "settings", "versionInfo"], dashboards, loginRequired: true, helpUrl: null });
    const group = nav.find((e) => e.kind === "group" && e.group.id === "dashboard");
    expect(group?.kind).toBe("group");
    if (group?.kind !== "group") return;
    expect(group.group.section?.items.map((i) => [i.to, i.bold])).toEqual([
      ["/0b7e6a1c-1234-4abc-8def-0123456789ab", true],
      ["/1b7e6a1c-1234-4abc-8def-0123456789ab", false],
    ]);
    expect(nav.some((e) => e.kind === "link" && e.link.key === "devices")).toBe(true);
  });
  it("adds the user section with Logout only when login is required", () => {
    const withLogin = buildNav({ keys: ["settings"], dashboards: [], loginRequired: true, helpUrl: null });
    const withoutLogin = buildNav({ keys: ["settings"], dashboards: [], loginRequired: false, helpUrl: null });
    expect(withLogin.some((e) => e.kind === "group" && e.group.id === "user" && e.group.items.some((i) => i.logout))).toBe(true);
    expect(withoutLogin.some((e) => e.kind === "group" && e.group.id === "user")).toBe(false);
  });
});

describe("active parent", () => {
  it("is active when a nested child link matches the path", () => {
    const nav = buildNav({ keys: ["dashboard", "versionInfo"], dashboards, loginRequired: true, helpUrl: null });
    const groups = nav.flatMap((e) => (e.kind === "group" ? [e.group] : []));
    const dash = groups.find((g) => g.id === "dashboard")!;
    const help = groups.find((g) => g.id === "help")!;
    expect(groupActive(dash, "/0b7e6a1c-1234-4abc-8def-0123456789ab")).toBe(true);
    expect(groupActive(dash, "/versionInfo")).toBe(false);
    expect(groupActive(help, "/versionInfo")).toBe(true);
  });
  it("matches whole segments only", () => {
    expect(linkMatches("/dashboard", "/dashboardManager")).toBe(false);
    expect(linkMatches("/dashboard", "/dashboard/x")).toBe(true);
  });
});
