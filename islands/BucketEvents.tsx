/** A bucket's Events (spec 2): 'Subscribe to Event' and a table of SQS (ARN), Events, Prefix, Suffix with delete. */
import { useState } from "react";
import type { BucketEvent } from "../server/lib/contract/buckets.ts";
import { bucketsApi } from "./lib/api/buckets.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, TextField } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";

const EVENT_TYPES = ["put", "get", "delete"] as const;
type EventType = typeof EVENT_TYPES[number];

/** "PUT - Object Uploaded" and the like, in the language in force. */
export const eventLabel = (type: EventType) =>
  type === "put"
    ? t("buckets.events.put")
    : type === "get"
    ? t("buckets.events.get")
    : t("buckets.events.delete");

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
  const toggle = (e: EventType) => setTypes(types.includes(e) ? types.filter((x) => x !== e) : [...types, e]);
  return (
    <Dialog
      title={t("buckets.events.subscribeTitle")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
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
              showSnackbar(t("buckets.events.subscribed")),
              onSaved()),
          ),
      }}
    >
      {arns.length === 0
        ? (
          <p className="text-sm mb-3">
            {t("buckets.events.noTargets")}
          </p>
        )
        : (
          <SelectField
            label={t("buckets.events.arn")}
            value={arn}
            options={arns.map((a) => ({ value: a, label: a }))}
            onChange={setArn}
          />
        )}
      <fieldset className="mb-3">
        <legend className="text-sm font-bold mb-1">{t("buckets.events.select")}</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="flex items-center gap-2 text-sm py-0.5">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={types.includes(type)}
              aria-label={eventLabel(type)}
              onChange={() => toggle(type)}
            />
            {eventLabel(type)}
          </label>
        ))}
      </fieldset>
      <TextField label={t("buckets.events.prefix")} value={prefix} onChange={setPrefix} />
      <TextField label={t("buckets.events.suffix")} value={suffix} onChange={setSuffix} />
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
          {t("buckets.events.subscribe")}
        </button>
      </div>
      <DataTable<BucketEvent>
        entity={t("buckets.entity.events")}
        id="events"
        rows={events.value}
        rowId={(e) => `${e.arn}|${e.prefix}|${e.suffix}|${e.events.join(",")}`}
        columns={[
          { id: "arn", label: t("buckets.events.sqs"), value: (e) => e.arn, breakAnywhere: true },
          { id: "events", label: t("buckets.events.events"), value: (e) => e.events.join(", ") },
          { id: "prefix", label: t("buckets.events.prefix"), value: (e) => e.prefix },
          { id: "suffix", label: t("buckets.events.suffix"), value: (e) => e.suffix },
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
        title={t("buckets.events.deleteTitle")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => (await bucketsApi.deleteEvent(bucket, deleting!),
          setDeleting(null),
          await events.reload())}
      >
        {t("buckets.events.deleteConfirm")}
      </ConfirmDialog>
    </>
  );
}
