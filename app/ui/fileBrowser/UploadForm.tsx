import { useState } from "react";
import { useRevalidator } from "react-router";
import { UPLOAD_LIMIT } from "~/schemas/fileBrowser";
import { FileInput } from "~/ui/FileInput";
import { buttonClass, FormErrors } from "~/ui/FormField";
import { useT } from "~/ui/useT";

const PATH = "/fileBrowser";

/** Upload into the shown folder: a plain multipart form; with JavaScript the same request goes by XHR to show its progress. */
export function UploadForm({ path }: { path: string }) {
  const t = useT();
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      method="post"
      action={`${PATH}/upload`}
      encType="multipart/form-data"
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
        if (!file) return setError(t("fileBrowser.validation.fileRequired"));
        if (file.size > UPLOAD_LIMIT) return setError(t("fileBrowser.validation.tooLarge", { mb: UPLOAD_LIMIT / 1024 / 1024 }));
        setError(null);
        setProgress(0);
        const xhr = new XMLHttpRequest();
        xhr.open("POST", form.action);
        xhr.setRequestHeader("Accept", "application/json");
        xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((100 * e.loaded) / e.total));
        xhr.onload = () => {
          setProgress(null);
          let answer: { error?: string } = {};
          try {
            answer = JSON.parse(xhr.responseText);
          } catch {
            answer = { error: t("fileBrowser.uploadFailed") };
          }
          if (xhr.status >= 400 || answer.error) return setError(answer.error ?? t("fileBrowser.uploadFailed"));
          form.reset();
          void revalidator.revalidate();
        };
        xhr.onerror = () => {
          setProgress(null);
          setError(t("fileBrowser.uploadFailed"));
        };
        xhr.send(new FormData(form));
      }}
    >
      <input type="hidden" name="path" value={path} />
      <FormErrors errors={error ? [error] : undefined} />
      <FileInput id="upload-file" label={t("fileBrowser.file")} hint={t("fileBrowser.limit", { mb: UPLOAD_LIMIT / 1024 / 1024 })} required />
      {progress !== null && (
        <progress max={100} value={progress} aria-label={t("fileBrowser.progress")} className="w-full">
          {progress}%
        </progress>
      )}
      <div>
        <button type="submit" className={buttonClass} disabled={progress !== null}>
          {t("fileBrowser.uploadButton")}
        </button>
      </div>
    </form>
  );
}
