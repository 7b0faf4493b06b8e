import { useT } from "~/ui/useT";

const COLOURS: Record<string, string> = {
  critical: "bg-red-700 text-white",
  high: "bg-orange-400 text-orange-950",
  medium: "bg-amber-300 text-amber-950",
  low: "bg-sky-200 text-sky-950",
};

export function SeverityBadge({ severity }: { severity: string }) {
  const t = useT();
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold uppercase ${COLOURS[severity] ?? "bg-slate-200"}`} data-severity={severity}>
      {t(`severity.${severity}`)}
    </span>
  );
}
