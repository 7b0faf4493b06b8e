import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { useEffect, useState } from "react";
import { useT } from "~/ui/useT";
import { Form, Link, useNavigation } from "react-router";

interface ConfirmFormProps {
  /** Hidden fields posted with the confirmation (intent, id, …). */
  fields: Record<string, string>;
  message: React.ReactNode;
  confirmLabel: string;
  /** Where "Cancel" leads without JavaScript (the same page without the confirm query). */
  cancelHref: string;
  onCancel?: () => void;
}

/** The confirmation form itself: posts the fields plus confirm=yes, which actions require. */
export function ConfirmForm({ fields, message, confirmLabel, cancelHref, onCancel }: ConfirmFormProps) {
  const t = useT();
  const navigation = useNavigation();
  return (
    <Form method="post" className="flex flex-col gap-4" data-testid="confirm-form">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="confirm" value="yes" />
      <div>{message}</div>
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <button type="button" onClick={onCancel} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700">
            {t("common.cancel")}
          </button>
        ) : (
          <Link to={cancelHref} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700">
            {t("common.cancel")}
          </Link>
        )}
        <button type="submit" disabled={navigation.state === "submitting"} className="rounded-md bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700 disabled:opacity-60">
          {confirmLabel}
        </button>
      </div>
    </Form>
  );
}

/**
 * A destructive action that asks first: with JavaScript a Headless UI dialog; without it the
 * trigger is a link to `confirmHref`, a page state that renders <ConfirmPanel>.
 */
export function ConfirmAction({ label, title, confirmHref, className, ...form }: ConfirmFormProps & { label: string; title: string; confirmHref: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        to={confirmHref}
        preventScrollReset
        className={className ?? "text-red-700 hover:underline dark:text-red-400"}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </Link>
      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-50">
        <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl dark:bg-slate-800">
            <DialogTitle className="mb-3 text-lg font-semibold">{title}</DialogTitle>
            <ConfirmForm {...form} onCancel={() => setOpen(false)} />
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}

/** The no-JavaScript confirmation page state. */
export function ConfirmPanel({ title, children, ...form }: ConfirmFormProps & { title: string; children?: React.ReactNode }) {
  return (
    <section role="alertdialog" aria-label={title} className="rounded-lg border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950">
      <h2 className="mb-2 text-lg font-semibold">{title}</h2>
      {children && <div className="mb-3">{children}</div>}
      <ConfirmForm {...form} />
    </section>
  );
}

/**
 * The second step of a two-step post (stop the project, write an output): the action answered
 * the first post with what would change, and this asks. Server-rendered (no JavaScript) it is the
 * page's confirmation panel; after hydration a dialog. `nonce` reopens it for a new answer.
 */
export function ConfirmStep({ title, nonce, ...form }: ConfirmFormProps & { title: string; nonce: string }) {
  // Mounted after a client-side post the app is hydrated already (root marks <html>): straight to the dialog.
  const [hydrated, setHydrated] = useState(() => typeof document !== "undefined" && document.documentElement.dataset.hydrated === "true");
  const [closed, setClosed] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return <ConfirmPanel title={title} {...form} />;
  return (
    <Dialog open={closed !== nonce} onClose={() => setClosed(nonce)} className="relative z-50">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl dark:bg-slate-800" data-testid="confirm-dialog">
          <DialogTitle className="mb-3 text-lg font-semibold">{title}</DialogTitle>
          <ConfirmForm {...form} onCancel={() => setClosed(nonce)} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
