import { textsIfLoaded } from "~/locales";

type Matches = readonly ({ id: string; loaderData?: unknown } | undefined)[];

/** A translated document title for a route's `meta` (which runs without an i18n instance). */
export function pageTitle(matches: Matches, key: string): { title: string }[] {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { locale?: string } | undefined;
  const lng = root?.locale === "it" ? "it" : "en";
  const text = key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), textsIfLoaded(lng) ?? textsIfLoaded("en"));
  return [{ title: typeof text === "string" ? `Loggia · ${text}` : "Loggia" }];
}
