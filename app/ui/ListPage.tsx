import type { ReactNode } from "react";

/** The content width rule of every list screen: full width up to `max-w-screen-xl`, one gap. */
export const listPageClass = "flex w-full max-w-screen-xl min-w-0 flex-col gap-6";

/** A list screen: its heading with the primary actions beside it, then the content. */
export function ListPage({ title, actions, children, testId }: { title: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className={listPageClass} data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
