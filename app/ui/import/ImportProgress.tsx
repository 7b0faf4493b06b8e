import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useT } from "~/ui/useT";
import { FormErrors } from "~/ui/FormField";

type Status = { phase: "reading" | "writing" | null; done: number; total: number };

/**
 * The import form's enhancement: with JavaScript the import is posted by fetch and its progress
 * (the logger reading the file, then writing its rows) is asked every 400 ms and shown as a bar;
 * without, the form posts and the next page says how it went.
 */
export function ImportProgress({ session, children }: { session: string | null; children: React.ReactNode }) {
  const t = useT();
  const navigate = useNavigate();
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<string | null>(null);
  const polling = useRef<ReturnType<typeof setInterval> | null>(null);
  const stop = () => {
    if (polling.current) clearInterval(polling.current);
    polling.current = null;
  };
  return (
    <div
      onSubmitCapture={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        if (submitter?.value !== "import") return;
        event.preventDefault();
        const form = event.target as HTMLFormElement;
        // URL-encoded as the plain form posts it (a multipart body is the upload's).
        const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
        body.set("intent", "import");
        setError(null);
        setStatus({ phase: null, done: 0, total: 1 });
        if (session) {
          polling.current = setInterval(() => {
            void fetch(`/import/progress?${new URLSearchParams({ session })}`, { headers: { Accept: "application/json" } })
              .then((r) => (r.ok ? r.json() : null))
              .then((p: { Progress: { Phase: "reading" | "writing"; Done: number; Total: number } | null } | null) => {
                if (p?.Progress) setStatus({ phase: p.Progress.Phase, done: p.Progress.Done, total: Math.max(1, p.Progress.Total) });
              })
              .catch(() => undefined);
          }, 400);
        }
        void fetch(form.action, { method: "POST", body, headers: { Accept: "application/json" } })
          .then(async (r) => (await r.json()) as { redirect?: string; error?: string })
          .then((answer) => {
            stop();
            if (answer.redirect) return void navigate(answer.redirect);
            setStatus(null);
            setError(answer.error ?? t("import.errors.upload"));
          })
          .catch(() => {
            stop();
            setStatus(null);
            setError(t("import.errors.upload"));
          });
      }}
    >
      <FormErrors errors={error ? [error] : undefined} />
      {children}
      {status && (
        <div className="mt-3 flex flex-col gap-1" data-testid="import-progress">
          <progress max={status.total} value={status.phase ? status.done : undefined} aria-label={t("import.importing")} className="w-full" />
          <p role="status" className="text-sm">
            {status.phase === "writing" ? t("import.phase.writing", { done: status.done, total: status.total }) : status.phase === "reading" ? t("import.phase.reading", { percent: Math.round((100 * status.done) / status.total) }) : t("import.importing")}
          </p>
        </div>
      )}
    </div>
  );
}
