import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, rpc, startWithAdmin, tempDir } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

describe("file API over HTTP", () => {
  let lg: TestLogger;
  let admin: string;
  let outside: string;
  let root: string;

  async function call(method: string, path: string, body?: unknown, token: string | null = admin, raw?: BodyInit) {
    const headers: Record<string, string> = { "Content-Type": raw ? "application/octet-stream" : "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`${lg.url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null };
  }
  const list = (p: string) => call("GET", `/files/list?Path=${encodeURIComponent(p)}`);
  const download = (p: string) => call("GET", `/files/download?Path=${encodeURIComponent(p)}`);

  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
    root = join(lg.dataDir, "files");
    outside = tempDir();
    writeFileSync(join(outside, "secret.txt"), "top secret");
    mkdirSync(join(root, "logs"));
    writeFileSync(join(root, "logs", "a.csv"), "time,value\n1,2\n");
    symlinkSync(outside, join(root, "escape"));
    symlinkSync(join(outside, "secret.txt"), join(root, "logs", "secret-link.txt"));
    symlinkSync(join(root, "logs"), join(root, "inner"));
  });
  afterAll(async () => {
    await lg.stop();
  });

  it("lists, downloads, uploads, makes folders, renames and deletes inside the root", async () => {
    const top = await list("");
    expect(top.status).toBe(200);
    expect(top.body.Data.Entries.map((e: { Name: string }) => e.Name).sort()).toEqual(["escape", "inner", "logs"]);
    const logs = await list("logs");
    expect(logs.body.Data.Entries.find((e: { Name: string }) => e.Name === "a.csv")).toMatchObject({ Type: "file", Size: 15 });
    const got = await download("logs/a.csv");
    expect(got.status).toBe(200);
    expect(got.text).toBe("time,value\n1,2\n");
    expect(got.headers.get("content-disposition")).toContain("a.csv");
    expect((await download("inner/a.csv")).text).toBe("time,value\n1,2\n");

    const up = await call("POST", `/files/upload?Path=logs&Name=${encodeURIComponent("../../evil\u0001.txt")}`, undefined, admin, "hello");
    expect(up.status).toBe(200);
    expect(up.body.Data.Path).toBe("logs/evil.txt");
    expect((await download("logs/evil.txt")).text).toBe("hello");
    expect((await call("POST", "/files/upload?Path=logs&Name=evil.txt", undefined, admin, "again")).status).toBe(409);

    expect((await call("POST", "/files/folder", { Path: "logs", Name: "sub" })).status).toBe(200);
    expect(existsSync(join(root, "logs", "sub"))).toBe(true);
    expect((await call("POST", "/files/rename", { Path: "logs/sub", Name: "sub2" })).status).toBe(200);
    expect(existsSync(join(root, "logs", "sub2"))).toBe(true);
    expect((await call("POST", "/files/delete", { Path: "logs/sub2" })).status).toBe(200);
    expect(existsSync(join(root, "logs", "sub2"))).toBe(false);

    // Deleting a link removes the link, never its target.
    expect((await call("POST", "/files/delete", { Path: "escape" })).status).toBe(200);
    expect(existsSync(join(outside, "secret.txt"))).toBe(true);
    symlinkSync(outside, join(root, "escape"));

    const messages = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", {}, admin);
    if (messages.status === 200) expect(JSON.stringify(messages.body)).toContain("Uploaded file logs/evil.txt");
  });

  it("refuses uploads over the size limit and keeps nothing of them", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    const res = await call("POST", "/files/upload?Path=&Name=big.bin", undefined, admin, big);
    expect(res.status).toBe(413);
    expect(readdirSync(root).filter((n) => n.startsWith(".upload") || n === "big.bin")).toEqual([]);
  });

  it("needs UseFilebrowser", async () => {
    const viewer = (await addUser(lg.url, admin, "fileviewer", "Viewer")).token;
    expect((await call("GET", "/files/list?Path=", undefined, viewer)).status).toBe(403);
    expect((await call("GET", "/files/list?Path=", undefined, null)).status).toBe(401);
  });

  const long = "a".repeat(256);
  const payloads = [
    "..", "../", "../..", "../../etc/passwd", "logs/../../secret.txt", "logs/..", "./logs", "logs/./a.csv",
    "/etc/passwd", "/", "//etc/passwd", "C:/Windows/win.ini", "c:secret",
    "..\\..\\etc\\passwd", "logs\\..\\..\\x", "%2e%2e/secret.txt", "%2e%2e%2fsecret.txt", "logs%2f..%2f..%2fx", "..%2fx",
    "%252e%252e%252f", "..%5c..%5cx", "logs%00.txt", "logs/a.csv\u0000.png", "\u0000", "logs\u0000/../..",
    "escape/secret.txt", "escape", "logs/secret-link.txt", "inner/../escape/secret.txt",
    long, `logs/${long}`, "x/".repeat(600), "logs//a.csv", "logs/", "/logs", "logs/\u0007bell",
  ];

  it(`refuses ${payloads.length} traversal payloads everywhere, touching nothing outside`, async () => {
    expect(payloads.length).toBeGreaterThanOrEqual(30);
    for (const p of payloads) {
      const attempts = [
        await list(p),
        await download(p),
        await call("POST", "/files/folder", { Path: p, Name: "made" }),
        // "escape" is a fine name for a new entry; as a path it leads out.
        ...(p === "escape" ? [] : [await call("POST", "/files/folder", { Path: "", Name: p }), await call("POST", "/files/rename", { Path: "logs/a.csv", Name: p })]),
        await call("POST", "/files/rename", { Path: p, Name: "moved" }),
        await call("POST", `/files/upload?Path=${encodeURIComponent(p)}&Name=x.txt`, undefined, admin, "x"),
      ];
      for (const a of attempts) {
        expect(a.status, `${JSON.stringify(p)} → ${a.text}`).toBeGreaterThanOrEqual(400);
        expect(a.status).toBeLessThan(500);
        expect(a.text).not.toContain("top secret");
        expect(a.body?.ReturnState?.Description, JSON.stringify(p)).toBeTruthy();
      }
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(existsSync(join(root, "logs", "a.csv"))).toBe(true);
    expect(existsSync(join(root, "made"))).toBe(false);
  });

  it("refuses deleting through a path that leaves the root", async () => {
    for (const p of ["..", "../", "/etc", "escape/secret.txt", "%2e%2e", "logs/../..", ""]) {
      const res = await call("POST", "/files/delete", { Path: p });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });
});
