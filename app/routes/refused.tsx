import { data } from "react-router";
import { z } from "zod";
import { ErrorPage } from "~/ui/ErrorPage";
import type { Route } from "./+types/refused";

// The page a browser gets when the request gate (app/services/requestGate.server.ts) refuses
// its request: server/main.ts renders this route in its place, with the refusal's status. It
// is static — no scripts — because the browser's address is the refused request's, not this.
export const handle = { noScripts: true };

const query = z.object({
  status: z.enum(["400", "403", "405", "413", "415"]).catch("400").transform(Number),
  reason: z.enum(["cross-origin", "method", "media-type", "bad-request", "too-large"]).catch("bad-request"),
});

export async function loader({ url }: Route.LoaderArgs) {
  const { status, reason } = query.parse(Object.fromEntries(url.searchParams));
  throw data({ reason }, { status });
}

export default function Refused() {
  return <ErrorPage status={400} reason="bad-request" />;
}
