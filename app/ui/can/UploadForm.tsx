import { Form } from "react-router";
import { FileInput } from "~/ui/FileInput";
import { buttonClass } from "~/ui/FormField";
import { Panel } from "~/ui/Panel";
import { useT } from "~/ui/useT";

/** Upload a capture or a DBC file (multipart, works without JavaScript); the error sits at the file. */
export function UploadForm({ intent, title, hint, accept, error, busy }: { intent: "capture" | "database"; title: string; hint: string; accept: string; error?: string; busy: boolean }) {
  const t = useT();
  return (
    <Panel title={title}>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3" data-testid={`can-${intent}-form`}>
        <input type="hidden" name="intent" value={intent} />
        <FileInput id={`can-${intent}-file`} label={t("can.file")} accept={accept} hint={hint} error={error} required />
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            {t("can.upload")}
          </button>
        </div>
      </Form>
    </Panel>
  );
}
