import { readableOn } from "~/ui/contrast";
import { useT } from "~/ui/useT";

/**
 * A small mock of the header and a button painted with the given colours and logo. It is
 * decorative (the real controls are the form fields), so it is hidden from assistive tech.
 */
export function ThemePreview({ mainColor, hoverColor, logoSrc }: { mainColor: string; hoverColor: string; logoSrc: string | null }) {
  const t = useT();
  // The swatches' text takes whichever of white or near-black reads on the chosen colour, so the
  // preview stays legible whatever colours are picked (axe checks it even though it is decorative).
  const colours = {
    "--preview-main": mainColor,
    "--preview-hover": hoverColor,
    "--preview-main-text": readableOn(mainColor),
    "--preview-hover-text": readableOn(hoverColor),
  } as React.CSSProperties;
  return (
    <figure className="flex flex-col gap-2 text-sm">
      <figcaption className="font-medium">{t("globalSettings.preview")}</figcaption>
      <div aria-hidden="true" data-testid="theme-preview" style={colours} className="overflow-hidden rounded-md border border-slate-200 text-slate-700 dark:border-slate-600">
        <div className="flex h-[76px] items-center gap-5 border-b border-slate-200 bg-white px-4">
          {logoSrc ? (
            <img src={logoSrc} alt="" className="max-h-[69px] max-w-[160px] object-contain" />
          ) : (
            <img src="/logo.svg" alt="" width={151} height={41} />
          )}
          <span className="border-b-2 border-(--preview-main) pb-1 font-semibold text-(--preview-main)">{t("nav.dashboard")}</span>
          <span className="pb-1 hover:text-(--preview-hover)">{t("nav.analytics")}</span>
        </div>
        <div className="flex flex-wrap items-center gap-3 bg-slate-50 p-4">
          <span className="rounded-md bg-(--preview-main) px-4 py-2 font-semibold text-(--preview-main-text) hover:bg-(--preview-hover) hover:text-(--preview-hover-text)">{t("globalSettings.previewButton")}</span>
          <span className="rounded-md bg-(--preview-hover) px-4 py-2 font-semibold text-(--preview-hover-text)">{t("globalSettings.previewHover")}</span>
        </div>
      </div>
    </figure>
  );
}
