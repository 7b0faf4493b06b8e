import { describe, expect, it } from "vitest";
import { changelogHtml } from "~/services/changelog.server";

describe("changelog rendering", () => {
  it("renders the repository's CHANGELOG.md", () => {
    const html = changelogHtml();
    expect(html).toContain("<h1>Changelog</h1>");
    expect(html).toContain("<h2>Unreleased</h2>");
    expect(html).toMatch(/<li>File browser:/);
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
