import type { TFunction } from "i18next";

/**
 * The browser's translator: the part of i18next the console's texts use — nested keys, plurals
 * (`_zero`, then the language's `Intl.PluralRules` category, then the bare key), `{{name}}` and
 * `{{- name}}` interpolation without escaping (React escapes), `defaultValue`, key lists and a
 * fallback language — in 1 KB instead of i18next's 15 KB of a first load. The server renders with
 * i18next itself (remix-i18next); tests/unit/console/translator.test.ts checks that this gives
 * i18next's answer for every key of every text file, so a hydrated page reads as served.
 * Not supported (no text uses them): formats (`{{x, number}}`), nesting (`$t(…)`), context,
 * ordinals, returnObjects; an object asked for as a text answers as i18next 26 does.
 */

type Texts = { [key: string]: unknown };
type Options = { [option: string]: unknown };

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** i18next's deepFind: a dotted path through nested objects, or a flat key containing dots. */
function deepFind(obj: unknown, path: string): unknown {
  if (!obj || typeof obj !== "object") return undefined;
  const o = obj as Texts;
  if (o[path]) return hasOwn(o, path) ? o[path] : undefined;
  const tokens = path.split(".");
  let current: unknown = o;
  for (let i = 0; i < tokens.length; ) {
    if (!current || typeof current !== "object") return undefined;
    let next: unknown;
    let nextPath = "";
    for (let j = i; j < tokens.length; ++j) {
      if (j !== i) nextPath += ".";
      nextPath += tokens[j];
      next = (current as Texts)[nextPath];
      if ((typeof next === "function" || nextPath === "__proto__") && !hasOwn(current as object, nextPath)) next = undefined;
      if (next !== undefined) {
        if (["string", "number", "boolean"].includes(typeof next) && j < tokens.length - 1) continue;
        i += j - i + 1;
        break;
      }
    }
    current = next;
  }
  return current;
}

/** i18next's getPath: own properties along the path, undefined where it ends. */
function getPath(obj: unknown, path: string[]): unknown {
  let current = obj;
  for (const key of path) {
    if (!current || typeof current !== "object" || !hasOwn(current, key)) return undefined;
    current = (current as Texts)[key];
  }
  return current;
}

const makeString = (value: unknown) => (value == null ? "" : String(value));
const valid = (res: unknown) => res !== undefined && res !== null;

export class Translator {
  language = "en";
  isInitialized = false;
  private fallback = "en";
  /** Per language, per namespace (only "translation"): the loaded texts. Read by useT as a cache key. */
  readonly store = { data: {} as Record<string, Record<string, Texts>> };
  private listeners = new Set<(lng: string) => void>();
  private plurals = new Map<string, Intl.PluralRules>();

  async init(options: { resources: Record<string, { translation: Texts }>; lng: string; fallbackLng?: string }) {
    for (const [lng, bundle] of Object.entries(options.resources)) this.addResourceBundle(lng, "translation", bundle.translation, true, true);
    this.language = options.lng;
    this.fallback = options.fallbackLng ?? "en";
    this.isInitialized = true;
    return this.getFixedT(this.language);
  }

  /** Deep-merges texts into a language (`deep` and `overwrite` as i18next's: always both here). */
  addResourceBundle(lng: string, ns: string, resources: Texts, _deep?: boolean, _overwrite?: boolean) {
    const byNs = (this.store.data[lng] ??= {});
    byNs[ns] = merge(byNs[ns] ?? {}, resources);
    return this;
  }

  async changeLanguage(lng: string) {
    this.language = lng;
    for (const listener of [...this.listeners]) listener(lng);
    return this.getFixedT(lng);
  }

  on(event: string, listener: (lng: string) => void) {
    if (event === "languageChanged") this.listeners.add(listener);
    return this;
  }

  off(event: string, listener: (lng: string) => void) {
    if (event === "languageChanged") this.listeners.delete(listener);
    return this;
  }

  getFixedT(lng: string): TFunction {
    return ((key: unknown, options?: unknown) => this.translate(lng, key, typeof options === "object" && options !== null ? (options as Options) : typeof options === "string" ? { defaultValue: options } : {})) as TFunction;
  }

  t: TFunction = ((key: unknown, options?: unknown) => (this.getFixedT(this.language) as (k: unknown, o?: unknown) => string)(key, options)) as TFunction;

  private pluralSuffix(lng: string, count: number) {
    let rules = this.plurals.get(lng);
    if (!rules) this.plurals.set(lng, (rules = new Intl.PluralRules(lng)));
    return `_${rules.select(count)}`;
  }

  private translate(lng: string, keys: unknown, opt: Options): unknown {
    if (keys == null) return "";
    const list = (Array.isArray(keys) ? keys : [keys]).map(String);
    const codes = lng === this.fallback ? [lng] : [lng, this.fallback];
    const plural = opt.count !== undefined && typeof opt.count !== "string";
    let found: unknown;
    let usedKey = "";
    for (const whole of list) {
      if (valid(found)) break;
      const { ns, key } = split(whole);
      usedKey = key;
      for (const code of codes) {
        if (valid(found)) break;
        // Tried from the most specific: _zero (count 0), the plural category, the key itself.
        const tries = [key];
        if (plural) {
          tries.push(key + this.pluralSuffix(code, opt.count as number));
          if (opt.count === 0) tries.push(`${key}_zero`);
        }
        for (let k = tries.pop(); k !== undefined; k = tries.pop()) if (!valid(found)) found = this.resource(code, ns, k);
      }
    }
    const last = split(list[list.length - 1]!).key;
    const hasDefault = "defaultValue" in opt && opt.defaultValue !== undefined;
    let res = found;
    const forObject = !res && hasDefault ? opt.defaultValue : res;
    if (forObject && typeof forObject === "object" && !(typeof opt.joinArrays === "string" && Array.isArray(forObject))) {
      return `key '${last} (${this.language})' returned an object instead of string.`;
    }
    if (!valid(res) && hasDefault) res = opt.defaultValue;
    if (!valid(res)) res = last;
    void usedKey;
    return typeof res === "string" ? interpolate(res, opt) : res;
  }

  private resource(lng: string, ns: string, key: string): unknown {
    const result = getPath(this.store.data, [lng, ns, ...key.split(".")]);
    if (result) return result;
    return deepFind(this.store.data[lng]?.[ns], key);
  }
}

/**
 * i18next's extractFromKey: "ns:key" names another namespace (only "translation" exists) unless
 * the key reads as a sentence (a space or , ? ! ; before its first dot); the rest is joined by dots.
 */
function split(whole: string): { ns: string; key: string } {
  if (!whole.includes(":")) return { ns: "translation", key: whole };
  const sentence = /[ ,?!;]/;
  const dot = whole.indexOf(".");
  const objectPath = !sentence.test(whole) || (dot > 0 && !sentence.test(whole.slice(0, dot)));
  if (!objectPath || /\$t\(/.test(whole)) return { ns: "translation", key: whole };
  const parts = whole.split(":");
  const ns = parts.shift()!;
  return { ns, key: parts.join(".") };
}

function merge(target: Texts, source: Texts): Texts {
  for (const [key, value] of Object.entries(source)) {
    if (key === "__proto__" || key === "constructor") continue;
    const old = target[key];
    target[key] =
      value && typeof value === "object" && !Array.isArray(value) && old && typeof old === "object" && !Array.isArray(old) ? merge(old as Texts, value as Texts) : value;
  }
  return target;
}

/** `{{- name}}` then `{{name}}` (no escaping either way: escapeValue is false); a missing value stays as written. */
function interpolate(text: string, data: Options): string {
  if (!text.includes("{{")) return text;
  let str = text;
  for (const regex of [/\{\{-(.+?)\}\}/g, /\{\{(.+?)\}\}/g]) {
    let match: RegExpExecArray | null;
    let written = 0;
    while ((match = regex.exec(str)) !== null && written < 1000) {
      const name = match[1]!.trim();
      let value = valueOf(data, name);
      if (value === undefined) {
        if (!hasOwn(data, name)) continue;
        value = "";
      }
      const safe = makeString(value);
      str = str.slice(0, match.index) + safe + str.slice(match.index + match[0].length);
      // Values are not searched again ({{x}} inside a value stays as it is).
      regex.lastIndex = match.index + safe.length;
      written++;
    }
  }
  return str;
}

function valueOf(data: Options, name: string): unknown {
  if (name.includes(",")) return undefined;
  const direct = getPath(data, name.split("."));
  return direct == null ? (deepFind(data, name) ?? direct) : direct;
}

/** The browser's one instance (entry.client hydrates with it; root's client middleware adds texts to it). */
export const i18n = new Translator();
