import { data } from "react-router";
import { stateOf } from "~/services/context.server";
import { loadLogo, loadTheme } from "~/services/theme.server";
import type { Route } from "./+types/themeLogo";

// Serves the custom logo named by the WebUI setting (never any other logger file).
export async function loader({ context }: Route.LoaderArgs) {
  const { logger } = stateOf(context);
  const theme = await loadTheme(logger);
  if (!theme.logo) throw data(null, { status: 404 });
  const logo = await loadLogo(logger, theme.logo);
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "Content-Type": logo.contentType,
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
      // Uploaded SVGs may carry script; opened directly they must not run it.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    },
  });
}
