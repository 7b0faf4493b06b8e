import { useContext, useEffect, useRef, useState } from "react";
import { useT } from "~/ui/useT";
import { AlarmFeedContext } from "./alarmFeedContext";

// The annunciator's controls and sound (app/ui/alarms/Annunciator.tsx loads this on demand).

const ON_KEY = "loggia.annunciator";
const SILENCED_KEY = "loggia.annunciator.silenced";
/** A tone this often while an alarm sounds. */
const BEEP_EVERY_MS = 1_500;

type State = "off" | "on" | "sounding" | "blocked";

/** An alarm sounds once per activation: its key changes when it is raised again. */
const keyOf = (a: { ID: number; ActivatedAt: string | null }) => `${a.ID}@${a.ActivatedAt ?? ""}`;

export default function AnnunciatorPanel({ severities, className }: { severities: readonly string[]; className: string }) {
  const t = useT();
  const feed = useContext(AlarmFeedContext);
  const audio = useRef<AudioContext | null>(null);
  const [on, setOn] = useState(() => localStorage.getItem(ON_KEY) === "on");
  const [blocked, setBlocked] = useState(false);
  const [silenced, setSilenced] = useState<string[]>(() => JSON.parse(sessionStorage.getItem(SILENCED_KEY) ?? "[]") as string[]);
  const [beeps, setBeeps] = useState(0);
  const waiting = feed && feed !== "unknown" ? feed.waiting.filter((a) => severities.includes(a.Severity)) : [];
  const loud = waiting.map(keyOf).filter((k) => !silenced.includes(k));
  const sounding = on && loud.length > 0;

  // A display switched on earlier: its audio starts again if the browser lets it without a click.
  useEffect(() => {
    if (!on || audio.current) return;
    const ctx = new AudioContext();
    audio.current = ctx;
    void ctx.resume().finally(() => setBlocked(ctx.state !== "running"));
  }, [on]);
  useEffect(() => () => void audio.current?.close(), []);

  useEffect(() => {
    if (!sounding) return;
    const beep = () => {
      const ctx = audio.current;
      if (!ctx || ctx.state !== "running") return setBlocked(true);
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "square";
      osc.frequency.value = 880;
      gain.gain.value = 0.12;
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.25);
      setBeeps((n) => n + 1);
    };
    beep();
    const timer = setInterval(beep, BEEP_EVERY_MS);
    return () => clearInterval(timer);
  }, [sounding]);

  const switchOn = () => {
    const ctx = audio.current ?? new AudioContext();
    audio.current = ctx;
    void ctx.resume().then(() => setBlocked(ctx.state !== "running"));
    localStorage.setItem(ON_KEY, "on");
    setOn(true);
  };
  const switchOff = () => {
    localStorage.removeItem(ON_KEY);
    setOn(false);
  };
  const silence = () => {
    // Only the alarms sounding now; silenced keys of alarms no longer waiting are dropped.
    const next = [...new Set([...silenced.filter((k) => waiting.some((a) => keyOf(a) === k)), ...loud])];
    sessionStorage.setItem(SILENCED_KEY, JSON.stringify(next));
    setSilenced(next);
  };

  const state: State = !on ? "off" : blocked ? "blocked" : sounding ? "sounding" : "on";
  const base = `rounded-md px-3 py-1 text-sm font-semibold ${className}`;
  const common = { "data-testid": "annunciator", "data-state": state, "data-beeps": beeps };
  if (state === "off") {
    return (
      <button type="button" onClick={switchOn} className={`${base} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700`} {...common}>
        {t("operator.annunciator.turnOn")}
      </button>
    );
  }
  if (state === "blocked") {
    return (
      <button type="button" onClick={switchOn} className={`${base} bg-amber-300 text-amber-950`} {...common}>
        {t("operator.annunciator.allow")}
      </button>
    );
  }
  if (state === "sounding") {
    return (
      <button type="button" onClick={silence} className={`${base} animate-pulse bg-red-700 text-white`} {...common}>
        {t("operator.annunciator.silence")}
      </button>
    );
  }
  return (
    <button type="button" onClick={switchOff} className={`${base} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700`} aria-pressed="true" {...common}>
      {t("operator.annunciator.on")}
    </button>
  );
}
