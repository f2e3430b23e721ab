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

const TITLES: Record<JobMode, string> = {
  copy: "Copy",
  move: "Move",
  rename: "Rename",
  delete: "Delete",
};

const CONFLICTS: { value: ConflictChoice; label: string }[] = [
  { value: "overwrite", label: "Overwrite it" },
  { value: "skip", label: "Skip the object" },
  { value: "stop", label: "Stop the job" },
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
    if (clean === "" || clean.includes("/")) return "Type a new name without /";
    if (clean + (folder ? "/" : "") === leafName(name)) return "Type a different name";
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
      if (target === name) return "Choose another folder: this is where the selection is";
      if (name.endsWith("/") && target.startsWith(name)) return `${leafName(name)} cannot go inside itself`;
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
  const count = names.length === 1 ? `“${leafName(names[0])}”` : `${names.length} items`;
  const start = () =>
    action.run(async () => {
      if (typeof input === "string") throw new Error(input);
      props.onStarted(await jobsApi.create(input));
    });
  return (
    <Dialog
      title={mode === "delete" ? `Delete ${count}` : `${TITLES[mode]} ${count}`}
      open
      wide={mode === "copy" || mode === "move"}
      onClose={props.onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: TITLES[mode],
        tone: mode === "delete" ? "error" : "primary",
        submit: true,
        busy: action.busy,
        disabled: typeof input === "string",
        onClick: start,
      }}
    >
      {mode === "delete"
        ? (
          <p>
            Delete {count} from{" "}
            {bucket}, folders with everything in them? This runs as a job you can watch and cancel; what it
            deleted before a cancel stays deleted.
          </p>
        )
        : null}
      {mode === "rename"
        ? (
          <TextField
            label={names[0]?.endsWith("/") ? "New folder name" : "New name"}
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
              <legend className="text-sm font-bold mb-1">When the destination already has an object</legend>
              <div className="flex flex-wrap gap-4">
                {CONFLICTS.map((c) => (
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
              In versioned buckets the latest version of each object is copied; older versions and delete
              markers are not.{mode !== "copy"
                ? " Each source is deleted only after its copy is verified."
                : ""}
            </p>
          </>
        )
        : null}
    </Dialog>
  );
}
