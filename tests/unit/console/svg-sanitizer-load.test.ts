import { afterEach, expect, it, vi } from "vitest";

// The sanitizer (DOMPurify on jsdom) is loaded with the first SVG logo to check: a load that
// failed once must not refuse every later logo until the console restarts.
afterEach(() => {
  vi.doUnmock("isomorphic-dompurify");
  vi.resetModules();
});

it("a failed load of the SVG sanitizer is tried again at the next check", async () => {
  vi.resetModules();
  vi.doMock("isomorphic-dompurify", () => {
    throw new Error("disk hiccup");
  });
  const { sanitizeSvg } = await import("~/services/styling.server");
  await expect(sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg"/>`)).rejects.toThrow();
  vi.doUnmock("isomorphic-dompurify");
  expect(await sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`)).toContain("<rect");
});
