import shell from "./translation.json";

// The server's bundle of every text. Every other file here holds one screen's texts, merged
// under its file name (t("users.title")); a browser loads a file when the screen's feature entry
// names it in `texts` (tests/unit/console/routeTexts.test.ts says which are missing).
const screens = import.meta.glob<Record<string, unknown>>(["./*.json", "!./translation.json"], { eager: true, import: "default" });

const texts: Record<string, unknown> = { ...shell };
for (const [path, screen] of Object.entries(screens)) texts[path.slice(2, -".json".length)] = screen;
export default texts;
