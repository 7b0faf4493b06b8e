import { Marked, type Tokens } from "marked";
import changelog from "../../CHANGELOG.md?raw";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const SAFE_HREF = /^(https?:|mailto:|\/|#)/i;

// CHANGELOG.md is ours, but it is still rendered as if it were not: raw HTML is shown as text
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

/** The repository's CHANGELOG.md (bundled at build time) as safe HTML. */
export function changelogHtml(source: string = changelog): string {
  return marked.parse(source, { async: false });
}
