/** A bucket's Events (spec 2): 'Subscribe to Event' and a table of SQS (ARN), Events, Prefix, Suffix with delete. */
import { useState } from "react";
import type { BucketEvent } from "../server/lib/contract/buckets.ts";
import { bucketsApi } from "./lib/api/buckets.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, TextField } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

export const EVENT_LABELS = {
  put: "PUT - Object Uploaded",
  get: "GET - Object accessed",
  delete: "DELETE - Object Deleted",
} as const;
type EventType = keyof typeof EVENT_LABELS;

export interface BucketEventsProps {
  bucket: string;
  events: BucketEvent[];
  arns: string[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
}

function SubscribeDialog(
  { bucket, arns, onClose, onSaved }: {
    bucket: string;
    arns: string[];
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [arn, setArn] = useState(arns[0] ?? "");
  const [types, setTypes] = useState<EventType[]>([]);
  const [prefix, setPrefix] = useState("");
  const [suffix, setSuffix] = useState("");
  const action = useDialogAction();
  const toggle = (t: EventType) => setTypes(types.includes(t) ? types.filter((x) => x !== t) : [...types, t]);
  return (
    <Dialog
      title="Subscribe To Event"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: !arn || types.length === 0 || action.busy,
        onClick: () =>
          action.run(
            async () => (await bucketsApi.addEvent(bucket, {
              arn,
              events: types,
              prefix: prefix.trim(),
              suffix: suffix.trim(),
            }),
              showSnackbar("Event subscribed"),
              onSaved()),
          ),
      }}
    >
      {arns.length === 0
        ? (
          <p className="text-sm mb-3">
            The server has no notification targets yet. Add one under Settings, then restart the server.
          </p>
        )
        : (
          <SelectField
            label="ARN"
            value={arn}
            options={arns.map((a) => ({ value: a, label: a }))}
            onChange={setArn}
          />
        )}
      <fieldset className="mb-3">
        <legend className="text-sm font-bold mb-1">Select Event</legend>
        {(Object.keys(EVENT_LABELS) as EventType[]).map((t) => (
          <label key={t} className="flex items-center gap-2 text-sm py-0.5">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={types.includes(t)}
              aria-label={EVENT_LABELS[t]}
              onChange={() =>
                toggle(t)}
            />
            {EVENT_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <TextField label="Prefix" value={prefix} onChange={setPrefix} />
      <TextField label="Suffix" value={suffix} onChange={setSuffix} />
    </Dialog>
  );
}

export default function BucketEvents({ bucket, events: initial, arns, unavailable }: BucketEventsProps) {
  const events = useList(() => bucketsApi.events(bucket), initial);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<BucketEvent | null>(null);
  return (
    <>
      <div className="flex justify-end mb-4">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setAdding(true)}>
          Subscribe to Event
        </button>
      </div>
      <DataTable<BucketEvent>
        entity="events"
        rows={events.value}
        rowId={(e) => `${e.arn}|${e.prefix}|${e.suffix}|${e.events.join(",")}`}
        columns={[
          { id: "arn", label: "SQS", value: (e) => e.arn, breakAnywhere: true },
          { id: "events", label: "Events", value: (e) => e.events.join(", ") },
          { id: "prefix", label: "Prefix", value: (e) => e.prefix },
          { id: "suffix", label: "Suffix", value: (e) => e.suffix },
        ]}
        unavailable={unavailable}
        actions={[{ type: "delete", onSelect: setDeleting }]}
      />
      {adding
        ? (
          <SubscribeDialog
            bucket={bucket}
            arns={arns}
            onClose={() => setAdding(false)}
            onSaved={() => (setAdding(false), events.reload())}
          />
        )
        : null}
      <ConfirmDialog
        title="Delete Event"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => (await bucketsApi.deleteEvent(bucket, deleting!),
          setDeleting(null),
          await events.reload())}
      >
        Are you sure you want to delete this event subscription?
      </ConfirmDialog>
    </>
  );
}
