import { describe, expect, it } from "vitest";
import { changelogHtml, changelogSource } from "~/services/changelog.server";

describe("changelog rendering", () => {
  it("renders the operators' changelog in each language", () => {
    const en = changelogHtml(changelogSource("en"));
    expect(en).toContain("<h1>Changelog</h1>");
    expect(en).toContain("<h2>Unreleased</h2>");
    const it = changelogHtml(changelogSource("it"));
    expect(it).toContain("<h1>Novità</h1>");
    expect(it).toContain("<h2>Non ancora rilasciato</h2>");
    expect(changelogSource("fr")).toBe(changelogSource("en"));
  });

  it("is written for operators: no developer jargon", () => {
    for (const lng of ["en", "it"]) {
      expect(changelogSource(lng), lng).not.toMatch(/\b(zod|RPC|JSON|SSE|p50|zstd|schema|TypeScript|LOGGER_URL)\b/i);
    }
  });

  it("shows raw HTML as text and drops unsafe links", () => {
    const html = changelogHtml(
      '# T\n\n<script>alert(1)</script>\n\nInline <img src=x onerror=alert(1)> here.\n\n[bad](javascript:alert(1)) [good](https://example.com) ![pic](https://example.com/x.png "t")',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">good</a>');
    expect(html).toContain("bad");
  });
});
