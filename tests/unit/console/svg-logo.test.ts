import { describe, expect, it } from "vitest";
import { checkLogo, sanitizeSvg } from "~/services/styling.server";

const NS = `xmlns="http://www.w3.org/2000/svg"`;
const bytes = (s: string) => new TextEncoder().encode(s);

describe("SVG logos (DOMPurify)", () => {
  it.each([
    ["a script element", `<svg ${NS}><script>alert(1)</script><rect width="1" height="1"/></svg>`],
    ["an event handler", `<svg ${NS} onload="alert(1)"><rect width="1" height="1"/></svg>`],
    ["javascript: behind a character reference", `<svg ${NS}><a href="&#106;avascript:alert(1)"><rect width="1" height="1"/></a></svg>`],
    ["javascript: split by an encoded tab", `<svg ${NS}><a href="java&#x09;script:alert(1)"><rect width="1" height="1"/></a></svg>`],
    ["javascript: in xlink:href", `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect width="1" height="1"/></a></svg>`],
    ["an iframe", `<svg ${NS}><iframe src="https://evil.example/"/><rect width="1" height="1"/></svg>`],
    ["embedded HTML", `<svg ${NS}><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject></svg>`],
    ["an external image", `<svg ${NS}><image href="https://evil.example/track.png" width="1" height="1"/></svg>`],
    ["an external image by xlink:href", `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="//evil.example/t.png" width="1" height="1"/></svg>`],
    ["a use of another document", `<svg ${NS}><use href="https://evil.example/sprite.svg#x"/></svg>`],
    ["CSS loading from elsewhere", `<svg ${NS}><rect width="1" height="1" style="fill:url(https://evil.example/x)"/></svg>`],
    ["a style sheet import", `<svg ${NS}><style>@import url(https://evil.example/x.css);</style></svg>`],
    ["an animation setting href", `<svg ${NS}><a><set attributeName="href" to="javascript:alert(1)"/><rect width="1" height="1"/></a></svg>`],
  ])("refuses %s", async (_what, svg) => {
    expect(await sanitizeSvg(svg)).toBe("unsafe");
    expect(await checkLogo(bytes(svg))).toEqual({ ok: false, error: "globalSettings.errors.svgUnsafe" });
  });

  it("never expands entity declarations (they could expand into anything)", async () => {
    const svg = `<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg ${NS}><text>&x;</text></svg>`;
    const check = await checkLogo(bytes(svg));
    const clean = check.ok ? new TextDecoder().decode(check.bytes) : "";
    expect(clean).not.toMatch(/<script|ENTITY/i);
  });

  it("keeps a plain logo, with prolog, editor metadata, local references and embedded images", async () => {
    const svg = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Created with an editor -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" width="215" height="69" viewBox="0 0 215 69">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#3056a8"/></linearGradient></defs>
  <rect width="215" height="69" fill="url(#g)" style="stroke:#000"/>
  <use xlink:href="#g"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>
  <text x="10" y="40">Loggia&#160;&amp; co</text>
</svg>`;
    const check = await checkLogo(bytes(svg));
    expect(check.ok).toBe(true);
    const clean = new TextDecoder().decode((check as { bytes: Uint8Array }).bytes);
    expect(clean).toMatch(/^<svg /);
    expect(clean).toContain(`fill="url(#g)"`);
    expect(clean).toContain(`href="#g"`);
    expect(clean).toContain("data:image/png;base64");
    expect(clean).toContain(">Loggia&#160;&amp; co</text>");
    expect(clean).toContain(`viewBox="0 0 215 69"`);
    expect(clean).toContain("<linearGradient");
    expect(clean).not.toContain("inkscape");
    // What is stored is well-formed SVG.
    expect(clean).toContain(`xmlns="http://www.w3.org/2000/svg"`);
  });

  it("still tells PNG and JPEG by their signatures and refuses the rest", async () => {
    expect(await checkLogo(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]))).toMatchObject({ ok: true, kind: { ext: "png" } });
    expect(await checkLogo(Uint8Array.from([0xff, 0xd8, 0xff, 0]))).toMatchObject({ ok: true, kind: { ext: "jpg" } });
    expect(await checkLogo(bytes("<html><svg/></html>"))).toEqual({ ok: false, error: "globalSettings.errors.logoType" });
  });
});
