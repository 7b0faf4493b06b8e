// The Map's tile server setting, shared by the Global Settings form, its action and the Map
// page (which re-checks what is stored, since another client may have written it).

/** An http(s) tile URL template with {z}, {x} and {y}, at most 500 characters. */
export function isTileUrl(value: string): boolean {
  return value.length <= 500 && /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value.replace(/[{}]/g, "")) && ["{z}", "{x}", "{y}"].every((p) => value.includes(p));
}
