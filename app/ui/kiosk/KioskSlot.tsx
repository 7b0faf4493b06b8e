import { useEffect, useState } from "react";
import type { KioskChromeProps } from "./KioskChrome";

type Chrome = (props: KioskChromeProps) => React.ReactNode;

const load = () => import("./KioskChrome").then((m) => m.KioskChrome as Chrome);
// The server has the kiosk's markup at once (loaded before any render), so a page without
// JavaScript gets it whole. The browser fetches it as a chunk of its own (an ordinary dashboard's
// first load does not carry it); until it is there the server's markup stays as it was: an
// element whose inner HTML React is told not to touch. A Suspense boundary would not do: a large
// page's finished boundaries are streamed hidden and revealed by a script.
let chrome: Chrome | null = import.meta.env.SSR ? await load() : null;

export function KioskSlot(props: KioskChromeProps) {
  const [Loaded, setLoaded] = useState<Chrome | null>(() => chrome);
  useEffect(() => {
    if (!Loaded) void load().then((c) => setLoaded(() => (chrome = c)));
  }, [Loaded]);
  return Loaded ? (
    <div className="contents" data-testid="kiosk-chrome">
      <Loaded {...props} />
    </div>
  ) : (
    <div className="contents" data-testid="kiosk-chrome" dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
  );
}
