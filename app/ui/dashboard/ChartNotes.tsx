import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { Link, useFetcher } from "react-router";
import type uPlot from "uplot";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";
import { ANNOTATION_HEX, annotationsHref, noteLabel, type ChartAnnotation } from "./annotations";

// Operator annotations on the interactive chart (issue 28 §6), beside uPlot in the chart's lazy
// chunk: a uPlot plugin draws them on the canvas, flags over the plot open a note's details (with
// Edit and Remove where the viewer may), and Shift-drag (a span) or Shift-click (a time) on the
// plot opens a small form that adds one. Without JavaScript the chart panel's "Add note" link
// and the annotations screen do the same (app/routes/annotations.tsx).

export interface NoteTexts {
  word: string;
  add: string;
  text: string;
  tags: string;
  tagsHint: string;
  save: string;
  cancel: string;
  edit: string;
  remove: string;
  close: string;
  failed: string;
  at: (start: number, end: number) => string;
}

export interface NotesConfig {
  list: readonly ChartAnnotation[];
  /** May the viewer add notes (UseMetaData); the variables a note added here is about. */
  mayAdd: boolean;
  variables: readonly string[];
  /** The page to come back to after the annotations screen. */
  back: string;
}

/** The notes' texts, looked up here in the chart's lazy chunk rather than by every page's ChartWidget. */
function useNoteTexts(): NoteTexts {
  const t = useT();
  const fmt = useFormatters();
  return {
    word: t("dashboards.notes.word"),
    add: t("dashboards.notes.add"),
    text: t("dashboards.notes.text"),
    tags: t("dashboards.notes.tags"),
    tagsHint: t("dashboards.notes.tagsHint"),
    save: t("dashboards.notes.save"),
    cancel: t("common.cancel"),
    edit: t("dashboards.notes.edit"),
    remove: t("dashboards.notes.remove"),
    close: t("dashboards.notes.close"),
    failed: t("dashboards.notes.failed"),
    at: (start, end) => (end > start ? `${fmt.dateTime(start)} – ${fmt.dateTime(end)}` : fmt.dateTime(start)),
  };
}

/** Draws the notes on the canvas (spans as bands with dashed edges, times as lines); nothing when there are none. */
export function annotationsPlugin(notes: () => readonly ChartAnnotation[] | undefined): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const list = notes();
          if (!list?.length) return;
          const { ctx, bbox } = u;
          const dpr = globalThis.devicePixelRatio || 1;
          const x = (t: number) => u.valToPos(t / 1000, "x", true);
          ctx.save();
          ctx.beginPath();
          ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
          ctx.clip();
          ctx.strokeStyle = ANNOTATION_HEX;
          for (const a of list) {
            const x0 = x(a.start);
            if (a.end > a.start) {
              const x1 = x(a.end);
              ctx.fillStyle = `${ANNOTATION_HEX}1a`;
              ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
              ctx.lineWidth = 1 * dpr;
              ctx.setLineDash([4 * dpr, 3 * dpr]);
              for (const at of [x0, x1]) {
                ctx.beginPath();
                ctx.moveTo(at, bbox.top);
                ctx.lineTo(at, bbox.top + bbox.height);
                ctx.stroke();
              }
            } else {
              ctx.lineWidth = 1.5 * dpr;
              ctx.setLineDash([]);
              ctx.beginPath();
              ctx.moveTo(x0, bbox.top);
              ctx.lineTo(x0, bbox.top + bbox.height);
              ctx.stroke();
            }
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** Where each note's flag goes: x in CSS px within the plot (a span's flag at its start, or the plot's edge). */
export function notePlaces(u: uPlot, list: readonly ChartAnnotation[]): { id: number; left: number }[] {
  const width = u.bbox.width / (globalThis.devicePixelRatio || 1);
  return list.flatMap((a) => {
    const left = Math.round(u.valToPos(a.start / 1000, "x"));
    const right = Math.round(u.valToPos(a.end / 1000, "x"));
    if (right < 0 || left > width) return [];
    return [{ id: a.id, left: Math.max(0, Math.min(width, left)) }];
  });
}

/** The flags over the plot, and the details of the one opened. */
export function NoteFlags({ plot, places, config }: { plot: uPlot; places: { id: number; left: number }[]; config: NotesConfig }) {
  const [open, setOpen] = useState<number | null>(null);
  const note = config.list.find((a) => a.id === open);
  const at = places.find((p) => p.id === open);
  const t = useNoteTexts();
  return createPortal(
    <>
      {places.map((p) => {
        const a = config.list.find((x) => x.id === p.id)!;
        return (
          <button
            key={p.id}
            type="button"
            className="absolute -top-4 z-10 size-4 -translate-x-px cursor-pointer rounded-sm focus-visible:outline-2 focus-visible:outline-brand"
            style={{ left: p.left }}
            aria-label={noteLabel(t.word, a)}
            title={noteLabel(t.word, a)}
            aria-expanded={open === p.id}
            onClick={() => setOpen(open === p.id ? null : p.id)}
            data-annotation={p.id}
          >
            <svg viewBox="0 0 10 16" className="size-4" aria-hidden="true">
              <path d="M1 0v16M1 1h8l-2 3l2 3h-8z" fill={ANNOTATION_HEX} stroke={ANNOTATION_HEX} strokeWidth={1.5} />
            </svg>
          </button>
        );
      })}
      {note && at && (
        <div
          role="dialog"
          aria-label={noteLabel(t.word, note)}
          className="absolute top-1 z-20 w-64 max-w-[90%] rounded-md border border-slate-300 bg-white p-2 text-xs shadow-md dark:border-slate-600 dark:bg-slate-900"
          style={at.left < plot.over.clientWidth / 2 ? { left: at.left + 8 } : { right: plot.over.clientWidth - at.left + 8 }}
          data-testid="note-details"
        >
          <p className="font-semibold tabular-nums">{t.at(note.start, note.end)}</p>
          <p className="whitespace-pre-line break-words">{note.text}</p>
          <p className="text-slate-600 dark:text-slate-300">
            {note.author}
            {note.tags.length > 0 && ` · ${note.tags.join(", ")}`}
          </p>
          <div className="mt-1 flex gap-3">
            {note.canEdit && (
              <Link to={annotationsHref({ from: note.start, to: note.end, edit: note.id, back: config.back })} className="text-brand hover:underline">
                {t.edit}
              </Link>
            )}
            {note.canRemove && (
              <Link to={`${annotationsHref({ from: note.start, to: note.end, back: config.back })}&remove=${note.id}`} className="text-red-700 hover:underline dark:text-red-400">
                {t.remove}
              </Link>
            )}
            <button type="button" className="ml-auto text-slate-600 hover:underline dark:text-slate-300" onClick={() => setOpen(null)}>
              {t.close}
            </button>
          </div>
        </div>
      )}
    </>,
    plot.over,
  );
}

/** The form a Shift-drag or Shift-click opens: the note's text and tags, posted to the annotations screen. */
export function NoteDraft({ plot, draft, config, onDone }: { plot: uPlot; draft: { start: number; end: number }; config: NotesConfig; onDone(): void }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string }>();
  const t = useNoteTexts();
  const id = useId();
  const text = useRef<HTMLTextAreaElement>(null);
  useEffect(() => text.current?.focus(), []);
  // The note is saved: the charts fetch their notes again, the form goes.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      window.dispatchEvent(new Event("loggia:annotations"));
      onDone();
    }
  }, [fetcher.state, fetcher.data, onDone]);
  const left = Math.max(0, Math.min(plot.over.clientWidth - 260, Math.round(plot.valToPos(draft.start / 1000, "x"))));
  return createPortal(
    <fetcher.Form
      method="post"
      action="/annotations"
      className="absolute top-1 z-20 flex w-64 flex-col gap-1 rounded-md border border-slate-300 bg-white p-2 text-xs shadow-md dark:border-slate-600 dark:bg-slate-900"
      style={{ left }}
      onKeyDown={(e) => e.key === "Escape" && onDone()}
      aria-label={t.add}
      data-testid="note-draft"
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="js" value="1" />
      <input type="hidden" name="start" value={Math.round(draft.start)} />
      <input type="hidden" name="end" value={Math.round(draft.end)} />
      <input type="hidden" name="back" value={config.back} />
      {config.variables.map((v) => (
        <input key={v} type="hidden" name="v" value={v} />
      ))}
      <p className="font-semibold tabular-nums">
        {t.add}: {t.at(draft.start, draft.end)}
      </p>
      <label htmlFor={`${id}-text`}>{t.text}</label>
      <textarea ref={text} id={`${id}-text`} name="text" rows={2} required maxLength={2000} className="rounded border border-slate-300 px-1 py-0.5 dark:border-slate-600 dark:bg-slate-800" />
      <label htmlFor={`${id}-tags`}>{t.tags}</label>
      <input id={`${id}-tags`} name="tags" placeholder={t.tagsHint} className="rounded border border-slate-300 px-1 py-0.5 dark:border-slate-600 dark:bg-slate-800" />
      {fetcher.data?.error && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {fetcher.data.error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onDone} className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-700">
          {t.cancel}
        </button>
        <button type="submit" disabled={fetcher.state !== "idle"} className="rounded bg-brand px-2 py-1 font-semibold text-on-brand hover:bg-brand-hover hover:text-on-brand-hover disabled:opacity-60">
          {t.save}
        </button>
      </div>
    </fetcher.Form>,
    plot.over,
  );
}
