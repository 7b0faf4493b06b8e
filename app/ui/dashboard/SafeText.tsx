import type { ReactNode } from "react";

// A small Markdown subset for text widgets: "# heading", "- item", **bold**, *italic*, `code`,
// [link](https://…). Built from React elements, never from HTML, so no markup in the text can
// reach the page; links go only to http(s).

export function SafeText({ text, className = "text-sm" }: { text: string; className?: string }) {
  const blocks: ReactNode[] = [];
  let list: string[] = [];
  const flushList = () => {
    if (list.length) {
      blocks.push(
        <ul key={`ul${blocks.length}`} className="list-disc pl-5">
          {list.map((item, i) => (
            <li key={i}>{inline(item)}</li>
          ))}
        </ul>,
      );
    }
    list = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item) {
      list.push(item[1]!);
      continue;
    }
    flushList();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) blocks.push(<p key={blocks.length} className={heading[1]!.length === 1 ? "text-lg font-semibold" : "font-semibold"}>{inline(heading[2]!)}</p>);
    else if (line.trim()) blocks.push(<p key={blocks.length}>{inline(line)}</p>);
  }
  flushList();
  return <div className={`flex flex-col gap-1 ${className}`}>{blocks}</div>;
}

const INLINE = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;

function inline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return <strong key={i}>{part.slice(2, -2)}</strong>;
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return <code key={i} className="rounded bg-slate-100 px-1 dark:bg-slate-700">{part.slice(1, -1)}</code>;
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return <em key={i}>{part.slice(1, -1)}</em>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = /^https?:\/\//i.test(link[2]!) ? link[2]! : null;
      return href ? (
        <a key={i} href={href} rel="noopener noreferrer nofollow" target="_blank" className="text-brand underline">
          {link[1]}
        </a>
      ) : (
        link[1]
      );
    }
    return part;
  });
}
