// WCAG 2 contrast of theme colours, so text drawn on a site's own colours stays readable: the
// text on the primary button (main colour) and on its hover (hover colour) is white or near-black,
// whichever contrasts more (spec §9's default hover #4c85ff gives white only 3.4:1, dark 5.1:1).

/** Near-black text for light backgrounds (Tailwind's slate-900). */
export const DARK_TEXT = "#0f172a";
export const LIGHT_TEXT = "#ffffff";

/**
 * WCAG relative luminance of a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa — what the theme
 * setting accepts; alpha is ignored); null when it is none of these.
 */
export function luminance(hex: string): number | null {
  const m = /^#?([0-9a-f]{3,8})$/i.exec(hex.trim());
  if (!m || m[1]!.length === 5 || m[1]!.length === 7) return null;
  const digits = m[1]!.length <= 4 ? [...m[1]!.slice(0, 3)].map((d) => d + d).join("") : m[1]!.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(digits.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two hex colours (1 to 21); null when either is not one. */
export function contrastRatio(a: string, b: string): number | null {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** WCAG AA for normal text. */
export const AA_RATIO = 4.5;

/**
 * Text for a `hex` background that meets AA: white if it does, else near-black if it does, else
 * pure black (for any colour, white or black reaches at least 4.58:1). White if `hex` is not a
 * hex colour.
 */
export function readableOn(hex: string): string {
  const onWhite = contrastRatio(hex, LIGHT_TEXT);
  if (onWhite === null || onWhite >= AA_RATIO) return LIGHT_TEXT;
  if (contrastRatio(hex, DARK_TEXT)! >= AA_RATIO) return DARK_TEXT;
  return contrastRatio(hex, "#000000")! > onWhite ? "#000000" : LIGHT_TEXT;
}
