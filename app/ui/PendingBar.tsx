import { useT } from "~/ui/useT";
import { useNavigation } from "react-router";

/** While a client navigation loads: a thin bar and a "Loading" for screen readers. */
export function PendingBar() {
  const t = useT();
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-brand-light" role="progressbar" aria-label={t("loading")}>
      <div className="h-full w-1/3 animate-pulse bg-brand" />
      <span className="sr-only" aria-live="polite">
        {t("loading")}
      </span>
    </div>
  );
}
