import shell from "./translation.json";

// Every other file here holds one screen's texts, merged under its file name (t("users.title")):
// a new screen adds its file and nothing else.
const screens = import.meta.glob<Record<string, unknown>>(["./*.json", "!./translation.json"], { eager: true, import: "default" });

const texts: Record<string, unknown> = { ...shell };
for (const [path, screen] of Object.entries(screens)) texts[path.slice(2, -".json".length)] = screen;
export default texts;
