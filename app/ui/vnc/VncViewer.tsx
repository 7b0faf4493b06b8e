import type RFB from "@novnc/novnc";
import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "~/ui/useT";
import { buttonClass, inputClass } from "~/ui/FormField";

// The noVNC client (browser only: imported dynamically, it touches window at load time).
// It talks RFB over the console's WebSocket proxy; the page names only a target id.

type State = { kind: "idle" | "connecting" | "connected" | "disconnected" } | { kind: "reconnecting"; seconds: number; attempt: number };

const BACKOFF_S = [2, 4, 8, 15, 30];
const secondaryButton = "h-10 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-700";

function proxyUrl(target: number) {
  const url = new URL(`/vncview/ws?target=${target}`, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

export function VncViewer({ targets, initialTarget }: { targets: { ID: number; Name: string }[]; initialTarget?: number }) {
  const t = useT();
  const [targetId, setTargetId] = useState(targets.some((x) => x.ID === initialTarget) ? initialTarget! : targets[0]!.ID);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [failure, setFailure] = useState<string | null>(null);
  const [viewOnly, setViewOnly] = useState(false);
  const [scale, setScale] = useState(true);
  const [clipboard, setClipboard] = useState("");
  const [remoteClipboard, setRemoteClipboard] = useState("");
  const screenRef = useRef<HTMLDivElement>(null);
  const rfbRef = useRef<RFB | null>(null);
  const wanted = useRef(false);
  const attempt = useRef(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const options = useRef({ viewOnly, scale });
  options.current = { viewOnly, scale };
  const target = targets.find((x) => x.ID === targetId) ?? targets[0]!;

  const stopTimer = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  };

  const open = useCallback(async (id: number) => {
    stopTimer();
    setState({ kind: "connecting" });
    let RFBClass: typeof RFB;
    try {
      RFBClass = (await import("@novnc/novnc")).default;
    } catch {
      // The viewer's code could not be loaded (e.g. a new version was deployed): a reload helps.
      wanted.current = false;
      setState({ kind: "disconnected" });
      return;
    }
    if (!wanted.current || !screenRef.current) return;
    const rfb = new RFBClass(screenRef.current, proxyUrl(id), { shared: true });
    rfbRef.current = rfb;
    rfb.viewOnly = options.current.viewOnly;
    rfb.scaleViewport = options.current.scale;
    rfb.background = "rgb(15, 23, 42)";
    rfb.addEventListener("connect", () => {
      attempt.current = 0;
      setFailure(null);
      setState({ kind: "connected" });
    });
    rfb.addEventListener("securityfailure", (event) => {
      const reason = (event as CustomEvent<{ reason?: string }>).detail?.reason;
      setFailure(reason || null);
    });
    rfb.addEventListener("clipboard", (event) => setRemoteClipboard((event as CustomEvent<{ text: string }>).detail.text));
    rfb.addEventListener("disconnect", () => {
      if (rfbRef.current === rfb) rfbRef.current = null;
      if (!wanted.current) {
        setState({ kind: "disconnected" });
        return;
      }
      // Lost (or refused): try again after a growing pause, visibly, until the user stops it.
      const delay = BACKOFF_S[Math.min(attempt.current, BACKOFF_S.length - 1)]!;
      attempt.current += 1;
      let left = delay;
      const current = attempt.current;
      setState({ kind: "reconnecting", seconds: left, attempt: current });
      stopTimer();
      timer.current = setInterval(() => {
        left -= 1;
        if (left > 0) setState({ kind: "reconnecting", seconds: left, attempt: current });
        else if (wanted.current) void open(id);
      }, 1000);
    });
  }, []);

  const connect = () => {
    wanted.current = true;
    attempt.current = 0;
    setFailure(null);
    rfbRef.current?.disconnect();
    void open(targetId);
  };

  const disconnect = () => {
    wanted.current = false;
    stopTimer();
    if (rfbRef.current) rfbRef.current.disconnect();
    else setState({ kind: "disconnected" });
  };

  // Leaving the page closes the connection.
  useEffect(
    () => () => {
      wanted.current = false;
      stopTimer();
      rfbRef.current?.disconnect();
    },
    [],
  );
  useEffect(() => {
    if (rfbRef.current) rfbRef.current.viewOnly = viewOnly;
  }, [viewOnly]);
  useEffect(() => {
    if (rfbRef.current) rfbRef.current.scaleViewport = scale;
  }, [scale]);

  const active = state.kind === "connecting" || state.kind === "connected" || state.kind === "reconnecting";
  const stateText = state.kind === "reconnecting" ? t("vnc.state.reconnecting", { seconds: state.seconds, attempt: state.attempt }) : t(`vnc.state.${state.kind}`);
  const stateColour =
    state.kind === "connected"
      ? "bg-green-100 text-green-900"
      : state.kind === "reconnecting"
        ? "bg-amber-100 text-amber-900"
        : "bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100";

  return (
    <div className="flex flex-col gap-4 rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800" data-testid="vnc-viewer">
      <h2 className="text-lg font-semibold">{t("vnc.viewer")}</h2>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="vnc-target">{t("vnc.target")}</label>
          <select
            id="vnc-target"
            value={targetId}
            onChange={(e) => {
              if (wanted.current || rfbRef.current) disconnect();
              setTargetId(Number(e.target.value));
            }}
            className={inputClass}
          >
            {targets.map((x) => (
              <option key={x.ID} value={x.ID}>
                {x.Name}
              </option>
            ))}
          </select>
        </div>
        {active ? (
          <button type="button" onClick={disconnect} className={buttonClass}>
            {t("vnc.disconnect")}
          </button>
        ) : (
          <button type="button" onClick={connect} className={buttonClass}>
            {t("vnc.connect")}
          </button>
        )}
        {state.kind === "reconnecting" && (
          <button type="button" onClick={connect} className={secondaryButton}>
            {t("vnc.reconnectNow")}
          </button>
        )}
        <label className="flex h-10 items-center gap-2 text-sm">
          <input type="checkbox" checked={viewOnly} onChange={(e) => setViewOnly(e.target.checked)} className="h-4 w-4 accent-brand" />
          {t("vnc.viewOnly")}
        </label>
        <label className="flex h-10 items-center gap-2 text-sm">
          <input type="checkbox" checked={scale} onChange={(e) => setScale(e.target.checked)} className="h-4 w-4 accent-brand" />
          {t("vnc.scale")}
        </label>
        <button type="button" onClick={() => rfbRef.current?.sendCtrlAltDel()} disabled={state.kind !== "connected" || viewOnly} className={secondaryButton}>
          {t("vnc.ctrlAltDel")}
        </button>
        <span role="status" aria-live="polite" className={`mb-1.5 rounded-full px-3 py-1 text-sm font-medium ${stateColour}`} data-testid="vnc-state" data-state={state.kind}>
          {stateText}
        </span>
      </div>
      {failure && (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="vnc-failure">
          {t("vnc.failure", { reason: failure })}
        </div>
      )}
      <div
        ref={screenRef}
        role="img"
        aria-label={t("vnc.screen", { name: target.Name })}
        className={`h-[65vh] w-full overflow-hidden rounded-md bg-slate-900 ${scale ? "" : "overflow-auto"}`}
        data-testid="vnc-screen"
      />
      <fieldset className="grid gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("vnc.clipboard")}</legend>
        <div className="flex flex-col gap-2 text-sm font-medium">
          <label htmlFor="vnc-clipboard-local">{t("vnc.clipboardLocal")}</label>
          <textarea id="vnc-clipboard-local" rows={3} value={clipboard} onChange={(e) => setClipboard(e.target.value)} className={inputClass} />
          <div>
            <button type="button" onClick={() => rfbRef.current?.clipboardPasteFrom(clipboard)} disabled={state.kind !== "connected" || viewOnly || !clipboard} className={secondaryButton}>
              {t("vnc.clipboardSend")}
            </button>
          </div>
        </div>
        <div className="flex flex-col gap-2 text-sm font-medium">
          <label htmlFor="vnc-clipboard-remote">{t("vnc.clipboardRemote")}</label>
          <textarea id="vnc-clipboard-remote" rows={3} readOnly value={remoteClipboard} placeholder={t("vnc.clipboardRemoteEmpty")} className={`${inputClass} bg-slate-50 dark:bg-slate-900`} data-testid="vnc-remote-clipboard" />
        </div>
      </fieldset>
    </div>
  );
}
