import { isRouteErrorResponse } from "react-router";

// React Router's handleError (exported by app/entry.server.tsx): which errors met while answering
// the console logs. The router's own answers to a client's mistake — a POST to a page that has
// no action (405), a 4xx thrown by a resource route — are not server faults: logged with their
// stack, anyone could fill the log with them (issue 14: odd requests are 4xx, without a stack
// trace in the log). Everything else is logged as React Router does by default.
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
}
