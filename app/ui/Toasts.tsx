import { useEffect, useState } from "react";

export const TOAST_MS = 3000;

/**
 * Spec §8: red (error) or green (success), top-right, gone after 3 s — by CSS even without JS.
 * Top-right below the 76 px header (issue 28 §7): never over the alarm bell, messages and user menu.
 */
export function Toast({ toast }: { toast: { type: "success" | "error"; text: string } | null }) {
  const [shown, setShown] = useState(toast);
  useEffect(() => {
    setShown(toast);
    if (!toast) return;
    const timer = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!shown) return null;
  // The -700 shades keep white text at ≥ 4.5:1 (green-600 is only 3.3:1).
  const colour = shown.type === "error" ? "bg-red-700" : "bg-green-700";
  return (
    <div className="pointer-events-none fixed right-4 top-[calc(76px+0.5rem)] z-50 flex flex-col gap-2" data-testid="toasts">
      <div
        role={shown.type === "error" ? "alert" : "status"}
        data-testid={`toast-${shown.type}`}
        className={`toast-auto-hide pointer-events-auto rounded-md px-4 py-3 text-sm font-medium text-white shadow-lg ${colour}`}
      >
        {shown.text}
      </div>
    </div>
  );
}
