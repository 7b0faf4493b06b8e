import { useT } from "~/ui/useT";
import { Link, useNavigation } from "react-router";
import { buttonClass } from "./FormField";

/** Submit and Cancel of an add/edit form; Cancel is a link, so it works without JavaScript. */
export function FormActions({ submitLabel, cancelHref, className = "flex gap-2" }: { submitLabel: string; cancelHref: string; className?: string }) {
  const t = useT();
  const navigation = useNavigation();
  return (
    <div className={className}>
      <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
        {submitLabel}
      </button>
      <Link to={cancelHref} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700" preventScrollReset>
        {t("common.cancel")}
      </Link>
    </div>
  );
}
