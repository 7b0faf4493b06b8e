import { useEffect, useState } from "react";
import type { AlarmFeed } from "./useAlarmFeed";

type Banner = (props: { alarms: AlarmFeed }) => React.ReactNode;

const load = () => import("./AlarmBanner").then((m) => m.AlarmBanner as Banner);
// The server has the banner's markup at once, so a page without JavaScript gets it whole. The
// browser fetches it as a chunk of its own only when there is a banner to show (pages without an
// alarm awaiting acknowledgement never load it, and the dashboard's first load stays in its
// budget); until then the server's markup stays, untouched (as KioskSlot does).
let banner: Banner | null = import.meta.env.SSR ? await load() : null;

/** The alarm banner below the header (AlarmBanner), when there is one. */
export function AlarmBannerSlot({ alarms }: { alarms: AlarmFeed }) {
  const shows = alarms === "unknown" || (alarms !== null && alarms.top !== null);
  const [Loaded, setLoaded] = useState<Banner | null>(() => banner);
  useEffect(() => {
    if (shows && !Loaded) void load().then((b) => setLoaded(() => (banner = b)));
  }, [shows, Loaded]);
  if (!shows) return null;
  // The same wrapper on both sides, so the server's markup inside it can stay as it is. data-banner
  // says whose markup it holds: "server" in the page as sent (the server renders this branch too,
  // its banner loaded at start), "live" once the browser's own banner has taken its place (its
  // elements are new then). A page being checked waits for "live" before it holds on to them.
  return Loaded ? (
    <div className="contents" data-banner={import.meta.env.SSR ? "server" : "live"}>
      <Loaded alarms={alarms} />
    </div>
  ) : (
    <div className="contents" data-banner="server" dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
  );
}
