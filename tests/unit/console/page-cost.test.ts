import { zstdDecompressSync } from "node:zlib";
import i18next, { type TFunction } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { acceptsZstd, DocumentSink } from "~/services/documentStream.server";
import { rememberingT } from "~/ui/useT";

// The pieces that make a page cheaper to serve: the document sink React writes into, and the
// remembered translations.

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<{ chunks: number; bytes: Buffer }> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return { chunks: parts.length, bytes: Buffer.concat(parts) };
}

describe("DocumentSink", () => {
  it("hands React's writes on as one piece per flush, strings and bytes alike", async () => {
    const ended = vi.fn();
    const sink = new DocumentSink({ zstd: false, ended });
    const body = bytesOf(sink.body);
    sink.write("<html><body>");
    sink.write(new TextEncoder().encode("<p>grüße</p>"));
    sink.write("x".repeat(5000));
    sink.flush();
    sink.write("</body></html>");
    sink.end();
    const { chunks, bytes } = await body;
    expect(chunks).toBe(2);
    expect(bytes.toString("utf8")).toBe(`<html><body><p>grüße</p>${"x".repeat(5000)}</body></html>`);
    expect(ended).toHaveBeenCalledOnce();
  });

  it("compresses with zstd, each flush readable before the end", async () => {
    const sink = new DocumentSink({ zstd: true, ended: () => {} });
    const reader = sink.body.getReader();
    sink.write("<html><body>first part");
    sink.flush();
    // The flushed part arrives while the document is still open (streamed Suspense content).
    const first = await reader.read();
    expect(first.done).toBe(false);
    sink.write(" and the rest</body></html>");
    sink.end();
    const rest: Uint8Array[] = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
    expect(zstdDecompressSync(Buffer.concat(rest)).toString()).toBe("<html><body>first part and the rest</body></html>");
  });

  it("tells React when the client goes away, and errors the stream when React gives up", async () => {
    const sink = new DocumentSink({ zstd: false, ended: () => {} });
    const closed = vi.fn();
    sink.on("close", closed);
    await sink.body.cancel();
    expect(closed).toHaveBeenCalledOnce();
    const failing = new DocumentSink({ zstd: false, ended: () => {} });
    failing.destroy(new Error("render failed"));
    await expect(bytesOf(failing.body)).rejects.toThrow("render failed");
  });

  it("takes zstd only when the browser accepts it", () => {
    const req = (value?: string) => new Request("http://x/", { headers: value ? { "Accept-Encoding": value } : {} });
    expect(acceptsZstd(req("gzip, deflate, br, zstd"))).toBe(true);
    expect(acceptsZstd(req("zstd;q=0.5, gzip"))).toBe(true);
    expect(acceptsZstd(req("gzip, zstd;q=0"))).toBe(false);
    expect(acceptsZstd(req("gzip, br"))).toBe(false);
    expect(acceptsZstd(req())).toBe(false);
  });
});

describe("rememberingT", () => {
  it("answers as t() does, asking t() once per key and options", async () => {
    const i18n = i18next.createInstance();
    const resources = { en: { translation: { a: { hi: "Hello {{name}}", n_one: "{{count}} item", n_other: "{{count}} items" } } } };
    await i18n.init({ lng: "en", resources, interpolation: { escapeValue: false } });
    const raw = i18n.getFixedT("en");
    const spy = vi.fn(raw) as unknown as TFunction;
    const t = rememberingT(spy, i18n.store.data, "en");
    expect(t("a.hi", { name: "Ada" })).toBe("Hello Ada");
    expect(t("a.hi", { name: "Ada" })).toBe("Hello Ada");
    expect(t("a.hi", { name: "Bob" })).toBe("Hello Bob");
    expect(t("a.n", { count: 1 })).toBe("1 item");
    expect(t("a.n", { count: 2 })).toBe("2 items");
    expect(spy).toHaveBeenCalledTimes(4);
    // Options holding objects are never remembered.
    expect(t("a.hi", { name: "Cy", extra: { x: 1 } })).toBe("Hello Cy");
    expect(t("a.hi", { name: "Cy", extra: { x: 1 } })).toBe("Hello Cy");
    expect(spy).toHaveBeenCalledTimes(6);
  });
});

describe("openSession", () => {
  it("checks a cookie's signature once, and a changed cookie again", async () => {
    process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
    const { openSession, sessionStorageFor } = await import("~/services/session.server");
    const storage = sessionStorageFor(new Request("http://localhost/"));
    const session = await storage.getSession();
    session.set("username", "ada");
    session.flash("toast", { type: "success", text: "hi", id: "1" });
    const header = (await storage.commitSession(session)).split(";")[0]!;
    const getSession = vi.spyOn(storage, "getSession");
    const first = await openSession(storage, header);
    const second = await openSession(storage, header);
    expect(getSession).toHaveBeenCalledTimes(1);
    expect([first.get("username"), second.get("username")]).toEqual(["ada", "ada"]);
    // Each request gets its own session: a flash read by one is still there for the next.
    expect(first.get("toast")?.text).toBe("hi");
    expect(second.get("toast")?.text).toBe("hi");
    // A forged cookie is checked (and refused), not served from what was remembered. (A
    // character of the sealed text's middle: a base64 text's last one carries unused bits.)
    const value = header.slice(header.indexOf("=") + 1);
    const sealed = JSON.parse(Buffer.from(decodeURIComponent(value), "base64").toString()) as string;
    const at = Math.floor(sealed.length / 2);
    const forged = `loggia_session=${Buffer.from(JSON.stringify(sealed.slice(0, at) + (sealed[at] === "A" ? "B" : "A") + sealed.slice(at + 1))).toString("base64")}`;
    expect(forged).not.toBe(header);
    const refused = await openSession(storage, forged);
    expect(getSession).toHaveBeenCalledTimes(2);
    expect(refused.get("username")).toBeUndefined();
  });
});
