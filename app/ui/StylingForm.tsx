import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { FileInput } from "~/ui/FileInput";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useT } from "~/ui/useT";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import { MAX_LOGO_BYTES, stylingSchema } from "~/schemas/globalSettings";
import { ColourField, pickerColour } from "./ColourField";
import { buttonClass, FormErrors } from "./FormField";
import { useRootData } from "./rootData";
import { ThemePreview } from "./ThemePreview";

/**
 * Global Settings' styling form: logo upload or reset, main and hover colour, and a preview that
 * follows the fields with JavaScript (and shows the saved theme without).
 */
export function StylingForm({ saved, lastResult }: { saved: { mainColor: string; hoverColor: string; customLogo: boolean }; lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const navigation = useNavigation();
  const currentLogo = useRootData()?.theme.logo ?? null;
  const [form, fields] = useForm<z.input<typeof stylingSchema>, z.output<typeof stylingSchema>, string[]>({
    id: "styling-form",
    lastResult,
    defaultValue: {
      mainColor: saved.mainColor,
      mainColorPicker: pickerColour(saved.mainColor),
      hoverColor: saved.hoverColor,
      hoverColorPicker: pickerColour(saved.hoverColor),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: stylingSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [colours, setColours] = useState({ main: saved.mainColor, hover: saved.hoverColor });
  const [restoreDefault, setRestoreDefault] = useState(fields.restoreDefaultLogo.initialValue === "on");
  const picked = usePickedImage();
  const previewLogo = restoreDefault ? null : (picked.url ?? (saved.customLogo ? currentLogo : null));
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6 sm:grid-cols-2">
      <input type="hidden" name="intent" value="styling" />
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2">
        {/* The one file input of the console (issue 28 §7), as on every other upload. */}
        <FileInput
          id={fields.logo.id}
          name={fields.logo.name}
          label={t("globalSettings.logo")}
          accept="image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg"
          hint={t("globalSettings.logoHint", { size: MAX_LOGO_BYTES / 1024 / 1024 })}
          error={fields.logo.errors?.map((e) => t(e)).join(" ") || undefined}
          onChange={(file) => picked.choose(file ?? null)}
        />
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            {...getInputProps(fields.restoreDefaultLogo, { type: "checkbox" })}
            className="h-4 w-4 accent-brand"
            onChange={(e) => setRestoreDefault(e.currentTarget.checked)}
          />
          {t("globalSettings.restoreDefaultLogo")}
        </label>
      </div>
      <ColourField
        label={t("globalSettings.mainColor")}
        text={fields.mainColor}
        picker={fields.mainColorPicker}
        saved={saved.mainColor}
        hint={t("globalSettings.colourHint")}
        onColour={(main) => setColours((c) => ({ ...c, main }))}
      />
      <ColourField
        label={t("globalSettings.hoverColor")}
        text={fields.hoverColor}
        picker={fields.hoverColorPicker}
        saved={saved.hoverColor}
        hint={t("globalSettings.colourHint")}
        onColour={(hover) => setColours((c) => ({ ...c, hover }))}
      />
      <div className="sm:col-span-2">
        <ThemePreview mainColor={colours.main} hoverColor={colours.hover} logoSrc={previewLogo} />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
          {t("globalSettings.saveStyling")}
        </button>
      </div>
    </Form>
  );
}

/** An object URL for the image picked in a file input, released when replaced or unmounted. */
function usePickedImage() {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  // An <img> never runs script in an SVG, so showing the unchecked file here is harmless.
  const choose = (file: File | null) => setUrl(file && file.type.startsWith("image/") ? URL.createObjectURL(file) : null);
  return { url, choose };
}
