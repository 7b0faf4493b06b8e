import { createHash } from "node:crypto";
import { z } from "zod";
import { MAX_LOGO_BYTES } from "~/schemas/globalSettings";
import type { LoggerClient } from "./logger/client.server";
import { idAnswer, settingsAnswer } from "./logger/schemas";
import { parseWebUiSetting, type Theme } from "./theme.server";

// Writing the WebUI styling setting and checking uploaded logos (spec §3, §9).

/** The logo plus the few small fields of the styling form, with multipart framing. */
const MAX_FORM_BYTES = MAX_LOGO_BYTES + 64 * 1024;

/**
 * The posted form, or "too-large" without buffering more than the limit: refused on the declared
 * Content-Length before any byte is read, and counted while reading for chunked bodies.
 */
export async function readLimitedFormData(request: Request): Promise<FormData | "too-large"> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_FORM_BYTES) return "too-large";
  if (!request.body) return request.formData();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_FORM_BYTES) {
      await reader.cancel();
      return "too-large";
    }
    chunks.push(value);
  }
  const body = new Response(Buffer.concat(chunks), { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } });
  return body.formData();
}

export type LogoKind = { ext: "png" | "jpg" | "svg"; contentType: string };
export type LogoCheck = { ok: true; kind: LogoKind } | { ok: false; error: string };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/**
 * What the bytes are, whatever the file name or the browser's content type claim: PNG and JPEG
 * by their signatures, SVG by an `<svg>` root element — and an SVG only without active content.
 */
export function checkLogo(bytes: Uint8Array): LogoCheck {
  const startsWith = (sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
  if (startsWith(PNG)) return { ok: true, kind: { ext: "png", contentType: "image/png" } };
  if (startsWith(JPEG)) return { ok: true, kind: { ext: "jpg", contentType: "image/jpeg" } };
  const text = decodeUtf8(bytes);
  if (text === null || !hasSvgRoot(text)) return { ok: false, error: "globalSettings.errors.logoType" };
  if (hasActiveContent(text)) return { ok: false, error: "globalSettings.errors.svgUnsafe" };
  return { ok: true, kind: { ext: "svg", contentType: "image/svg+xml" } };
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The first element, after an optional BOM, XML declaration, comments and doctype, is `<svg`. */
function hasSvgRoot(text: string): boolean {
  const prolog = /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>/]/i;
  return prolog.test(text);
}

/**
 * The logo is only ever shown through `<img>` and served under a restrictive CSP, where none of
 * this can run; refusing it as well keeps a copy opened any other way harmless (defence in depth).
 * Character references are decoded first so `&#106;avascript:` is caught too.
 */
function hasActiveContent(svg: string): boolean {
  const decoded = svg
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000));
  return [
    /<(?:[\w-]+:)?script\b/i,
    /<(?:[\w-]+:)?foreignObject\b/i,
    /[\s"'/]on[a-z]+\s*=/i,
    /javascript\s*:/i,
    // Entity declarations can expand into any of the above (or into a billion laughs).
    /<!ENTITY/i,
  ].some((re) => re.test(decoded));
}

/** A new name per content: the console caches logos by file name (theme.server.ts). */
export function logoFileName(bytes: Uint8Array, kind: LogoKind): string {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  return `webui/logo-${hash}.${kind.ext}`;
}

export async function uploadLogo(logger: LoggerClient, bytes: Uint8Array, kind: LogoKind): Promise<string> {
  const fileName = logoFileName(bytes, kind);
  await logger.rpc("WebUIAPI.UploadFile", { FileName: fileName, Content: Buffer.from(bytes).toString("base64"), ContentType: kind.contentType }, z.object({ FileName: z.string() }));
  return fileName;
}

const STYLING_KEYS = ["logo", "mainColor", "hoverColor", "lightColor"];

/** The stored WebUI setting: its parsed theme, the raw logo value and the whole JSON object. */
export async function readWebUiSetting(logger: LoggerClient): Promise<{ theme: Theme; logo: string; json: Record<string, unknown> }> {
  const answer = await logger.rpc("GI.system/SettingsManagementAPI.GetSetting", { ID: -1, Key: "WebUI" }, settingsAnswer);
  const value = answer.Settings.find((s) => s.Key === "WebUI")?.Value;
  const theme = parseWebUiSetting(value);
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = value ? JSON.parse(value) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    // An unreadable setting is replaced as a whole.
  }
  return { theme, logo: theme.logo ?? "default_image", json };
}

/**
 * Stores `{styling: {...}}` (spec §3). Other top-level keys of the setting are kept; flat styling
 * fields from the older shape are dropped so they cannot contradict the new object.
 */
export async function saveStyling(
  logger: LoggerClient,
  stored: Awaited<ReturnType<typeof readWebUiSetting>>,
  styling: { logo: string; mainColor: string; hoverColor: string },
) {
  const rest = Object.fromEntries(Object.entries(stored.json).filter(([k]) => k !== "styling" && !STYLING_KEYS.includes(k)));
  const value = { ...rest, styling: { ...styling, lightColor: stored.theme.lightColor } };
  await logger.rpc("GI.system/SettingsManagementAPI.SetSetting", { ID: -1, Key: "WebUI", Value: JSON.stringify(value) }, idAnswer);
}
