import { beforeAll, describe, expect, it } from "vitest";

// The browser's device tokens (issue 24) in the console's signed cookie: one per user, the most
// recent few users, refused when tampered with.

type Module = typeof import("~/services/deviceCookie.server");
let mod: Module;
beforeAll(async () => {
  process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
  mod = await import("~/services/deviceCookie.server");
});

const request = (cookie: string | null, url = "http://localhost:3000/signin") => new Request(url, { headers: cookie ? { Cookie: cookie } : {} });
const pair = (setCookie: string) => setCookie.split(";")[0]!;

describe("device cookie", () => {
  it("keeps a token per user, found however the name is typed, HttpOnly and long-lived", async () => {
    expect(await mod.deviceTokenFor(request(null), "ada")).toBeNull();
    const set = await mod.keepDeviceToken(request(null), "Ada", "token-ada");
    expect(set).toMatch(/^loggia_device=/);
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/Path=\//);
    expect(Number(/Max-Age=(\d+)/.exec(set)?.[1])).toBe(180 * 86400);
    expect(set).not.toMatch(/Secure/i);
    expect(await mod.deviceTokenFor(request(pair(set)), " ADA ")).toBe("token-ada");
    expect(await mod.deviceTokenFor(request(pair(set)), "bob")).toBeNull();
    // Behind https it is a Secure cookie.
    expect(await mod.keepDeviceToken(request(null, "https://loggia.example/signin"), "ada", "t")).toMatch(/Secure/i);
  });

  it("holds the latest few users, replacing a user's older token", async () => {
    let cookie = "";
    for (const user of ["u1", "u2", "u3", "u4", "u5", "u6"]) cookie = pair(await mod.keepDeviceToken(request(cookie), user, `token-${user}`));
    cookie = pair(await mod.keepDeviceToken(request(cookie), "u3", "token-u3-new"));
    expect(await mod.deviceTokenFor(request(cookie), "u1")).toBeNull(); // the oldest dropped out
    expect(await mod.deviceTokenFor(request(cookie), "u2")).toBe("token-u2");
    expect(await mod.deviceTokenFor(request(cookie), "u3")).toBe("token-u3-new");
    expect(await mod.deviceTokenFor(request(cookie), "u6")).toBe("token-u6");
    expect(mod.MAX_DEVICE_USERS).toBe(5);
  });

  it("ignores a cookie that was changed or not signed by the console", async () => {
    const set = pair(await mod.keepDeviceToken(request(null), "ada", "token-ada"));
    const [name, value] = set.split("=") as [string, string];
    const forged = `${name}=${Buffer.from(JSON.stringify([{ u: "ada", t: "forged" }])).toString("base64")}`;
    expect(await mod.deviceTokenFor(request(forged), "ada")).toBeNull();
    expect(await mod.deviceTokenFor(request(`${name}=x${value}`), "ada")).toBeNull();
  });
});
