import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ConfirmAction } from "~/ui/ConfirmAction";

/**
 * One look for a row's actions: links, small intent forms and confirmed removals. On a phone
 * (issue 28 §3) each is a bordered target of at least 44×44 px, and a destructive one keeps to
 * the far end of the row, apart from the others.
 */
const phoneTarget = "phone:inline-flex phone:min-h-11 phone:min-w-11 phone:items-center phone:justify-center phone:rounded-md phone:border phone:px-3 phone:no-underline";
export const actionClass = `rounded text-brand hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand ${phoneTarget} phone:border-slate-300 dark:phone:border-slate-600`;
export const dangerActionClass = `rounded text-red-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 dark:text-red-400 ${phoneTarget} phone:ms-auto phone:border-red-300 dark:phone:border-red-800`;
const linkClass = actionClass;
const dangerClass = dangerActionClass;

/** The actions cell's content: wraps on narrow screens, right-aligned; on a phone a row of large targets. */
export function RowActions({ children, className = "justify-end" }: { children: ReactNode; className?: string }) {
  return (
    <div className={`flex flex-wrap items-center gap-x-3 gap-y-1 phone:w-full phone:justify-start phone:gap-3 ${className}`} data-row-actions>
      {children}
    </div>
  );
}

/** A link action (edit, open, …); `label` names the row for screen readers ("Edit alice"). */
export function RowLink({ to, children, label, testId, reloadDocument }: { to: string; children: ReactNode; label?: string; testId?: string; reloadDocument?: boolean }) {
  return (
    <Link to={to} preventScrollReset className={linkClass} aria-label={label} data-testid={testId} reloadDocument={reloadDocument}>
      {children}
    </Link>
  );
}

/** A one-button form posting `intent` plus hidden fields (works without JavaScript). */
export function RowButton({
  intent,
  fields = {},
  children,
  label,
  danger = false,
  testId,
  action,
}: {
  intent: string;
  fields?: Record<string, string>;
  children: ReactNode;
  label?: string;
  danger?: boolean;
  testId?: string;
  action?: string;
}) {
  return (
    <Form method="post" action={action} className={`inline ${danger ? "phone:ms-auto" : ""}`} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`${danger ? dangerClass : linkClass} cursor-pointer`} aria-label={label} data-testid={testId}>
        {children}
      </button>
    </Form>
  );
}

/** A removal asking first (Headless UI dialog with JavaScript, confirm page state without). */
export function RowRemove(props: React.ComponentProps<typeof ConfirmAction>) {
  return <ConfirmAction className={dangerClass} {...props} />;
}
