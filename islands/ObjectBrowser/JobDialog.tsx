/**
 * Starting a job on the selection (issue 28): Copy and Move to a path in this or another bucket (the
 * destination picker), Rename of one object or folder in place, and Delete of a large selection or of
 * folders. The job runs on the console's server; its progress shows in the jobs panel.
 */
import { useState } from "react";
import {
  type ConflictChoice,
  type CreateJobInput,
  destinationKey,
  type JobView,
} from "../../server/lib/contract/jobs.ts";
import { jobsApi } from "../lib/api/jobs.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";
import { type Destination, DestinationPicker } from "./DestinationPicker.tsx";
import { leafName } from "./locations.ts";
import { t } from "../lib/i18n/t.ts";

export type JobMode = "copy" | "move" | "rename" | "delete";

export interface JobDialogProps {
  mode: JobMode | null;
  bucket: string;
  /** The folder the selection was made in. */
  prefix: string;
  names: string[];
  onClose: () => void;
  onStarted: (job: JobView) => void;
}

/** The dialog's button: the action's own word. */
const actionLabel = (mode: JobMode) =>
  t(
    mode === "copy"
      ? "common.action.copy"
      : mode === "move"
      ? "objects.folder.move"
      : mode === "rename"
      ? "objects.folder.rename"
      : "common.action.delete",
  );

const dialogTitle = (mode: JobMode, what: string) =>
  t(
    mode === "copy"
      ? "objects.job.copyTitle"
      : mode === "move"
      ? "objects.job.moveTitle"
      : mode === "rename"
      ? "objects.job.renameTitle"
      : "objects.job.deleteTitle",
    { what },
  );

const conflicts = (): { value: ConflictChoice; label: string }[] => [
  { value: "overwrite", label: t("objects.job.overwrite") },
  { value: "skip", label: t("objects.job.skip") },
  { value: "stop", label: t("objects.job.stop") },
];

/** What the job will be asked to do, or a sentence saying what is missing. */
export function jobInput(
  mode: JobMode,
  source: { bucket: string; prefix: string; names: string[] },
  destination: Destination,
  newName: string,
  conflict: ConflictChoice,
): CreateJobInput | string {
  if (mode === "delete") {
    return {
      kind: "delete",
      source: { bucket: source.bucket, base: source.prefix, names: source.names },
      conflict,
    };
  }
  if (mode === "rename") {
    const [name] = source.names;
    const folder = name.endsWith("/");
    const clean = newName.replace(/\/+$/, "");
    if (clean === "" || clean.includes("/")) return t("objects.job.nameWithoutSlash");
    if (clean + (folder ? "/" : "") === leafName(name)) return t("objects.job.differentName");
    return {
      kind: "move",
      source: { bucket: source.bucket, base: name, names: [name] },
      destination: { bucket: source.bucket, prefix: source.prefix + clean + (folder ? "/" : "") },
      conflict,
    };
  }
  const prefix = destination.prefix === "" || destination.prefix.endsWith("/")
    ? destination.prefix
    : `${destination.prefix}/`;
  if (destination.bucket === source.bucket) {
    for (const name of source.names) {
      const target = destinationKey(name, source.prefix, prefix);
      if (target === name) return t("objects.job.sameFolder");
      if (name.endsWith("/") && target.startsWith(name)) {
        return t("objects.job.insideItself", { name: leafName(name) });
      }
    }
  }
  return {
    kind: mode,
    source: { bucket: source.bucket, base: source.prefix, names: source.names },
    destination: { bucket: destination.bucket, prefix },
    conflict,
  };
}

export function JobDialog(props: JobDialogProps) {
  const { mode, bucket, prefix, names } = props;
  const [destination, setDestination] = useState<Destination>({ bucket, prefix });
  const currentName = names.length === 1 ? leafName(names[0]).replace(/\/$/, "") : "";
  const [newName, setNewName] = useState(currentName);
  const [conflict, setConflict] = useState<ConflictChoice>("overwrite");
  const action = useDialogAction();
  if (!mode) return null;
  const input = jobInput(mode, { bucket, prefix, names }, destination, newName, conflict);
  const count = names.length === 1
    ? t("objects.job.quoted", { name: leafName(names[0]) })
    : t("objects.jobs.items", { count: names.length });
  const start = () =>
    action.run(async () => {
      if (typeof input === "string") throw new Error(input);
      props.onStarted(await jobsApi.create(input));
    });
  return (
    <Dialog
      title={dialogTitle(mode, count)}
      open
      wide={mode === "copy" || mode === "move"}
      onClose={props.onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: actionLabel(mode),
        tone: mode === "delete" ? "error" : "primary",
        submit: true,
        busy: action.busy,
        disabled: typeof input === "string",
        onClick: start,
      }}
    >
      {mode === "delete" ? <p>{t("objects.job.deleteConfirm", { what: count, bucket })}</p> : null}
      {mode === "rename"
        ? (
          <TextField
            label={names[0]?.endsWith("/") ? t("objects.job.newFolderName") : t("objects.job.newName")}
            value={newName}
            onChange={setNewName}
            error={typeof input === "string" && newName !== currentName ? input : undefined}
          />
        )
        : null}
      {mode === "copy" || mode === "move"
        ? (
          <>
            <DestinationPicker value={destination} onChange={setDestination} />
            {typeof input === "string"
              ? <p className="text-error text-sm mt-2" role="alert">{input}</p>
              : null}
          </>
        )
        : null}
      {mode !== "delete"
        ? (
          <>
            <fieldset className="mt-3">
              <legend className="text-sm font-bold mb-1">{t("objects.job.conflict")}</legend>
              <div className="flex flex-wrap gap-4">
                {conflicts().map((c) => (
                  <label key={c.value} className="label gap-2 cursor-pointer text-sm">
                    <input
                      type="radio"
                      className="radio radio-sm"
                      name="conflict"
                      checked={conflict === c.value}
                      onChange={() => setConflict(c.value)}
                    />
                    {c.label}
                  </label>
                ))}
              </div>
            </fieldset>
            <p className="text-sm text-base-content/70 mt-3" data-testid="job-versions-note">
              {t(mode === "copy" ? "objects.job.versionsNote" : "objects.job.versionsNoteMove")}
            </p>
          </>
        )
        : null}
    </Dialog>
  );
}
