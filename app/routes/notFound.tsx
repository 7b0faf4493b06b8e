import { data, redirect } from "react-router";
import { bareUuid } from "~/services/redirects";
import { ErrorPage } from "~/ui/ErrorPage";
import type { Route } from "./+types/notFound";

export async function loader({ url }: Route.LoaderArgs) {
  // Spec §2: a bare UUID path goes to /dashboard, carrying the dashboard it named.
  const id = bareUuid(url.pathname);
  if (id) throw redirect(`/dashboard?id=${id}${url.search ? `&${url.search.slice(1)}` : ""}`);
  return data(null, { status: 404 });
}

export async function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} />;
}
