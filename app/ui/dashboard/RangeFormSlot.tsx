import { useEffect, useRef, useState } from "react";
import type { RangeFormProps } from "./RangeForm";

type FormComponent = (props: RangeFormProps) => React.ReactNode;

const load = () => import("./RangeForm").then((m) => m.RangeForm as FormComponent);
// The server renders the form at once (loaded before any render), so it works without JavaScript
// as a plain GET form. The browser hydrates without it (the date fields and their parsing are not
// in a dashboard's first load): the server's markup stays untouched (inner HTML React is told to
// leave alone) until the user is about to open the fold (pointer over it, focus, a tap) or a
// client navigation changed the range the server's copy shows; then the chunk is fetched and the
// React form replaces the server's, keeping anything typed into it meanwhile. The KioskSlot way.
let loaded: FormComponent | null = import.meta.env.SSR ? await load() : null;

/** The folded form: `<details>` with its summary (hydrated as usual) around the form's slot. */
export function RangeFormSlot({ summary, ...props }: RangeFormProps & { summary: string }) {
  const [Loaded, setLoaded] = useState<FormComponent | null>(() => loaded);
  const [typed, setTyped] = useState<RangeFormProps["typed"]>();
  const [wanted, setWanted] = useState(false);
  const server = useRef<HTMLDivElement>(null);
  const focused = useRef<string | null>(null);
  const first = useRef(props);
  // A client navigation changed what the form must show: the server's copy is out of date.
  const was = first.current;
  const stale = was.range.from !== props.range.from || was.range.to !== props.range.to || was.range.preset !== props.range.preset || was.refresh !== props.refresh || was.id !== props.id;
  useEffect(() => {
    if (Loaded || !(wanted || stale)) return;
    let gone = false;
    void load().then((form) => {
      if (gone) return;
      loaded = form;
      // Whatever the user typed into the server's copy meanwhile goes over to the React form.
      const copy = server.current?.querySelector("form");
      const active = document.activeElement;
      if (active && server.current?.contains(active)) focused.current = active.getAttribute("name");
      if (copy) {
        const data = new FormData(copy);
        const value = (name: string) => (typeof data.get(name) === "string" ? (data.get(name) as string) : undefined);
        const initial = (name: string) => (copy.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement | null)?.getAttribute("value") ?? undefined;
        const changed = (name: string) => (!stale && value(name) !== undefined && value(name) !== initial(name) ? value(name) : undefined);
        const refreshSelect = copy.querySelector<HTMLSelectElement>('select[name="refresh"]');
        const refreshDefault = refreshSelect?.querySelector<HTMLOptionElement>("option[selected]")?.value;
        setTyped({ from: changed("from"), to: changed("to"), refresh: !stale && refreshSelect && refreshSelect.value !== refreshDefault ? refreshSelect.value : undefined });
      }
      setLoaded(() => form);
    });
    return () => {
      gone = true;
    };
  }, [Loaded, wanted, stale]);
  // Keeps the focus where it was in the server's copy (the element of the same name).
  useEffect(() => {
    if (!Loaded || !focused.current) return;
    document.querySelector<HTMLElement>(`[data-testid="range-form"] [name="${focused.current}"]`)?.focus();
    focused.current = null;
  }, [Loaded]);
  const want = () => setWanted(true);
  return (
    <details className="group" data-testid="range-details" onPointerEnter={want} onFocus={want} onTouchStart={want} onToggle={want}>
      <summary className="w-fit cursor-pointer rounded text-sm font-medium text-brand hover:underline focus-visible:outline-2 focus-visible:outline-brand">{summary}</summary>
      {Loaded ? (
        // data-enhanced: the form is React's (the server's copy never has it; tests wait for it).
        <div key="react" className="contents" data-testid="range-form" data-enhanced={import.meta.env.SSR ? undefined : "true"}>
          <Loaded {...props} typed={typed} />
        </div>
      ) : (
        <div key="server" ref={server} className="contents" data-testid="range-form" dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
      )}
    </details>
  );
}
