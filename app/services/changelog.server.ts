import { Marked, type Tokens } from "marked";
import en from "../changelog/en.md?raw";
import it from "../changelog/it.md?raw";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const SAFE_HREF = /^(https?:|mailto:|\/|#)/i;

// The changelog is ours, but it is still rendered as if it were not: raw HTML is shown as text
// and only web, mail and local links become links.
const marked = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link({ href, tokens }: Tokens.Link) {
      const label = this.parser.parseInline(tokens);
      return SAFE_HREF.test(href) ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${label}</a>` : label;
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
});

/** The operators' changelog in each language (app/changelog/; the technical one is docs/CHANGELOG.md). */
const CHANGELOGS: Record<string, string> = { en, it };

export function changelogSource(locale: string): string {
  return CHANGELOGS[locale] ?? en;
}

/** Markdown (the operators' changelog, bundled at build time) as safe HTML. */
export function changelogHtml(source: string = en): string {
  return marked.parse(source, { async: false });
}
