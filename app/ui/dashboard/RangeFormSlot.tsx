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

type Values = { from?: string; to?: string; refresh?: string };

/** The fields' values in the server's copy now. */
function valuesOf(form: HTMLFormElement): Values {
  const data = new FormData(form);
  const value = (name: string) => (typeof data.get(name) === "string" ? (data.get(name) as string) : undefined);
  return { from: value("from"), to: value("to"), refresh: value("refresh") };
}

/** The values the server drew the copy with. */
function drawnValuesOf(form: HTMLFormElement): Values {
  const drawn = (name: string) => form.querySelector(`input[name="${name}"]`)?.getAttribute("value") ?? undefined;
  return { from: drawn("from"), to: drawn("to"), refresh: form.querySelector<HTMLOptionElement>('select[name="refresh"] option[selected]')?.value };
}

/** The folded form: `<details>` with its summary (hydrated as usual) around the form's slot. */
export function RangeFormSlot({ summary, ...props }: RangeFormProps & { summary: string }) {
  const [Loaded, setLoaded] = useState<FormComponent | null>(() => loaded);
  const [typed, setTyped] = useState<RangeFormProps["typed"]>();
  const [wanted, setWanted] = useState(false);
  const server = useRef<HTMLDivElement>(null);
  const focused = useRef<string | null>(null);
  const first = useRef(props);
  const sinceStale = useRef<Values | null>(null);
  // A client navigation changed what the form must show: the server's copy is out of date.
  const was = first.current;
  const stale = was.range.from !== props.range.from || was.range.to !== props.range.to || was.range.preset !== props.range.preset || was.refresh !== props.refresh || was.id !== props.id;
  useEffect(() => {
    if (Loaded || !(wanted || stale)) return;
    // What the server's copy held when the range changed under it: what was typed for the old
    // range is dropped, what is typed from now until the React form arrives is kept.
    const copy = server.current?.querySelector("form");
    if (stale && copy && !sinceStale.current) sinceStale.current = valuesOf(copy);
    let gone = false;
    void load().then((form) => {
      if (gone) return;
      loaded = form;
      // Whatever the user typed into the server's copy meanwhile goes over to the React form.
      const active = document.activeElement;
      if (active && server.current?.contains(active)) focused.current = active.getAttribute("name");
      if (copy) {
        const before = sinceStale.current ?? drawnValuesOf(copy);
        const now = valuesOf(copy);
        const typedInto = (name: keyof Values) => (now[name] !== undefined && now[name] !== before[name] ? now[name] : undefined);
        setTyped({ from: typedInto("from"), to: typedInto("to"), refresh: typedInto("refresh") });
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
