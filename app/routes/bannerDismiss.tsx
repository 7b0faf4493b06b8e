import { data, redirect } from "react-router";
import { z } from "zod";
import { dismiss } from "~/services/banner";
import { requireSession } from "~/services/guards.server";
import { readMaintenanceInfo, writeDismissal } from "~/services/maintenance.server";
import { safePath } from "~/services/redirects";
import type { Route } from "./+types/bannerDismiss";

const schema = z.object({ text: z.string().min(1).max(2000), redirectTo: z.string().optional() });

export async function loader() {
  throw data(null, { status: 404 });
}

export async function action(args: Route.ActionArgs) {
  await requireSession(args);
  const form = schema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!form.success) throw data({ reason: "bad-request" }, { status: 400 });
  const info = dismiss(await readMaintenanceInfo(args.request), form.data.text);
  const headers = new Headers();
  for (const cookie of await writeDismissal(info)) headers.append("Set-Cookie", cookie);
  return redirect(safePath(form.data.redirectTo) ?? "/", { headers });
}
