import { userWithTheme } from "./axe";
import { expect, roleId, signInDirect, test } from "./fixtures";

// Issue 28 §4: the default logo's wordmark is readable in every theme — on a dark header (the
// dark theme, and the semi-dark theme's dark chrome) the light-wordmark twin shows.

for (const [theme, shown] of [
  ["light", "/logo.svg"],
  ["dark", "/logo-dark.svg"],
  ["semi-dark", "/logo-dark.svg"],
] as const) {
  test(`the header shows ${shown} in the ${theme} theme`, async ({ page }) => {
    const { username, password } = await userWithTheme(await roleId("Viewer"), theme);
    await signInDirect(page, username, password);
    await page.goto("/");
    const home = page.locator("header").getByRole("link", { name: "Home" });
    const visible = home.locator("img:visible");
    await expect(visible).toHaveCount(1);
    await expect(visible).toHaveAttribute("src", shown);
    // The wordmark's colour against the header it sits on, as drawn.
    const { wordmark, header } = await page.evaluate(async (src) => {
      const svg = await (await fetch(src)).text();
      const fill = /<text[^>]*fill="(#[0-9a-f]{6})"/i.exec(svg)![1]!;
      // The header's colour as drawn (Tailwind writes oklch): one pixel on a canvas says it in sRGB.
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.fillStyle = getComputedStyle(document.querySelector("header")!).backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return { wordmark: fill, header: `rgb(${r}, ${g}, ${b})` };
    }, shown);
    const ratio = contrast(wordmark, header);
    expect(ratio, `${wordmark} on ${header}`).toBeGreaterThanOrEqual(4.5);
  });
}

function rgb(colour: string): [number, number, number] {
  if (colour.startsWith("#")) return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour)!;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = rgb(c).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
