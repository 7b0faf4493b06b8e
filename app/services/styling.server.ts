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
/** A logo to store: its kind and the bytes to keep (an SVG as the sanitizer returned it). */
export type LogoCheck = { ok: true; kind: LogoKind; bytes: Uint8Array } | { ok: false; error: string };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/**
 * What the bytes are, whatever the file name or the browser's content type claim: PNG and JPEG
 * by their signatures, SVG by an `<svg>` root element — and an SVG only as DOMPurify cleans it.
 */
export async function checkLogo(bytes: Uint8Array): Promise<LogoCheck> {
  const startsWith = (sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
  if (startsWith(PNG)) return { ok: true, kind: { ext: "png", contentType: "image/png" }, bytes };
  if (startsWith(JPEG)) return { ok: true, kind: { ext: "jpg", contentType: "image/jpeg" }, bytes };
  const text = decodeUtf8(bytes);
  if (text === null || !hasSvgRoot(text)) return { ok: false, error: "globalSettings.errors.logoType" };
  const clean = await sanitizeSvg(text);
  if (clean === "unsafe") return { ok: false, error: "globalSettings.errors.svgUnsafe" };
  if (clean === null) return { ok: false, error: "globalSettings.errors.logoType" };
  return { ok: true, kind: { ext: "svg", contentType: "image/svg+xml" }, bytes: new TextEncoder().encode(clean) };
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** What may come before the `<svg>` root: BOM, XML declaration, comments, a doctype. */
const PROLOG = /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*(?=<svg[\s>/])/i;

/** The first element, after an optional BOM, XML declaration, comments and doctype, is `<svg`. */
function hasSvgRoot(text: string): boolean {
  return PROLOG.test(text);
}

let dompurify: Promise<typeof import("isomorphic-dompurify").default> | undefined;

/**
 * DOMPurify, loaded with the first SVG logo to check: it brings jsdom, whose loading was half of
 * what a console's start cost (1.84 → 0.98 CPU-s to its first page, 173 → 116 MB resident), for a
 * form an administrator posts rarely.
 */
function purifier() {
  // A load that failed is forgotten, so the next check tries again rather than failing for good.
  return (dompurify ??= import("isomorphic-dompurify").then(
    (m) => m.default,
    (err: unknown) => {
      dompurify = undefined;
      throw err;
    },
  ));
}

/**
 * Starts loading the SVG sanitizer in the background: the Global Settings screen does it when an
 * administrator opens it, so that a logo posted from it does not wait for jsdom to load.
 */
export function prepareLogoCheck(): void {
  // A failure is the logo check's to report, when there is a logo to check.
  purifier().catch(() => {});
}

/** Elements whose removal means the file tried something (rather than carried editor metadata). */
const ACTIVE_ELEMENTS = new Set(["script", "iframe", "foreignobject", "embed", "object", "frame", "frameset", "applet", "link", "meta", "base", "style", "animate", "animatemotion", "animatetransform", "set", "handler", "listener", "image", "use", "feimage", "a", "form", "input", "button", "textarea", "audio", "video"]);
const ACTIVE_ATTRIBUTES = /^(on|href$|xlink:href$|src$|action$|formaction$|style$)/i;
/** References a logo may keep: to its own elements, or to an embedded image. */
const LOCAL_REFERENCE = /^\s*(#|data:image\/(png|jpeg|gif|webp);)/i;
/** CSS that loads something from elsewhere (@import, url() to anything but #id or data:image). */
const EXTERNAL_CSS = /@import|url\(\s*['"]?\s*(?!#|data:image\/)/i;

/**
 * The SVG as DOMPurify (a maintained sanitizer, SVG profile) returns it, with references to
 * other documents removed too (`<image href="https://…">`, `<use href="other.svg#x">`, CSS
 * `url(https://…)`, `@import`); "unsafe" when that removed active content (scripts, event
 * handlers, javascript: links however encoded, embedded HTML or frames, external references) —
 * so the user learns the logo was refused rather than silently changed; null when no SVG is
 * left (an entity declaration, broken XML).
 */
export async function sanitizeSvg(text: string): Promise<string | null | "unsafe"> {
  const DOMPurify = await purifier();
  // The prolog goes before parsing: DOMPurify parses the SVG inside a document of its own.
  const svg = text.replace(PROLOG, "");
  let unsafe = false;
  const external = (node: Element, name: string) => {
    const value = node.getAttribute(name);
    if (value !== null && !LOCAL_REFERENCE.test(value)) {
      node.removeAttribute(name);
      unsafe = true;
    }
  };
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (!("getAttribute" in node)) return;
    const el = node as Element;
    for (const name of ["href", "xlink:href", "src"]) external(el, name);
    const style = el.getAttribute("style");
    if (style !== null && EXTERNAL_CSS.test(style)) {
      el.removeAttribute("style");
      unsafe = true;
    }
    if (el.localName === "style" && EXTERNAL_CSS.test(el.textContent ?? "")) {
      el.remove();
      unsafe = true;
    }
  });
  let clean: string;
  try {
    // Parsed as SVG inside HTML (the HTML parser restores viewBox, linearGradient… whatever the
    // file's case); `use` is allowed because the hook above drops references to other documents.
    clean = DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ["use"] }).trim();
  } finally {
    DOMPurify.removeHook("afterSanitizeAttributes");
  }
  for (const r of DOMPurify.removed as { element?: Node; attribute?: Attr | null }[]) {
    if (r.element && ACTIVE_ELEMENTS.has(r.element.nodeName.toLowerCase())) unsafe = true;
    if (r.attribute && ACTIVE_ATTRIBUTES.test(r.attribute.name)) unsafe = true;
  }
  if (unsafe) return "unsafe";
  if (!/^<svg[\s>]/i.test(clean)) return null;
  // Back from HTML serialisation to a standalone SVG file: &nbsp; is no XML entity, and the
  // namespaces must be declared.
  clean = clean.replace(/&nbsp;/g, "&#160;");
  if (!/^<svg[^>]*\sxmlns=/.test(clean)) clean = clean.replace(/^<svg/, `<svg xmlns="http://www.w3.org/2000/svg"`);
  if (/\sxlink:/.test(clean) && !/^<svg[^>]*\sxmlns:xlink=/.test(clean)) clean = clean.replace(/^<svg/, `<svg xmlns:xlink="http://www.w3.org/1999/xlink"`);
  return clean;
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
  const answer = await logger.readFreshRpc("GI.system/SettingsManagementAPI.GetSetting", { ID: -1, Key: "WebUI" }, settingsAnswer);
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
