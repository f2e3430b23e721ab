/**
 * A bucket's Replication (spec 2): 'Add Replication Rule' (only with s3:PutReplicationConfiguration), a table
 * of Priority, Destination (without 'arn:aws:s3:::'), Prefix, Tags (Yes/No), Status; delete disabled while
 * more than one rule exists (as the spec notes).
 */
import { useState } from "react";
import type { ReplicationRuleView, ReplicationStatusView } from "../server/lib/contract/buckets.ts";
import {
  DEFAULT_REMOTE,
  RemoteFields,
  remoteValid,
  replicationRequest,
} from "./dialogs/ReplicationDialogs.tsx";
import { bucketsApi } from "./lib/api/buckets.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { Switch, TextField } from "./ui/fields.tsx";
import { TagEditor, tagsProblem, tagsToString } from "./ui/TagEditor.tsx";
import { ReplicationProgress } from "./ui/ReplicationProgress.tsx";
import { ruleStatusText } from "./lib/bucket_texts.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

export interface BucketReplicationProps {
  bucket: string;
  rules: ReplicationRuleView[];
  /** How far replication has got (null: no replication configuration, or not readable). */
  status?: ReplicationStatusView | null;
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
  canAdd: boolean;
}

export const destinationName = (arn: string) => arn.replace(/^arn:aws:s3:::/, "");

function AddRuleDialog(
  { bucket, onClose, onSaved }: { bucket: string; onClose: () => void; onSaved: () => void },
) {
  const [remote, setRemote] = useState(DEFAULT_REMOTE);
  const [target, setTarget] = useState("");
  const [prefix, setPrefix] = useState("");
  const [tags, setTags] = useState<{ key: string; value: string }[]>([{ key: "", value: "" }]);
  const [deleteMarkers, setDeleteMarkers] = useState(true);
  const [deletes, setDeletes] = useState(true);
  const [metadata, setMetadata] = useState(true);
  const action = useDialogAction();
  function save() {
    action.run(async () => {
      const result = await bucketsApi.replicate({
        ...replicationRequest(remote),
        prefix: prefix.trim(),
        tags: tagsToString(tags),
        replicateDeleteMarkers: deleteMarkers,
        replicateDeletes: deletes,
        replicateMetadata: metadata,
        bucketsRelation: [{ originBucket: bucket, destinationBucket: target.trim() }],
      });
      const state = result.replicationState?.[0];
      if (!state) throw new Error(t("buckets.replication.noChanges"));
      if (state.errorString) throw new Error(state.errorString);
      onSaved();
    });
  }
  return (
    <Dialog
      title={t("buckets.replication.setTitle")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: !remoteValid(remote) || !target.trim() || !!tagsProblem(tags) || action.busy,
        onClick: save,
      }}
    >
      <RemoteFields value={remote} onChange={setRemote} />
      <TextField label={t("buckets.replication.targetBucket")} value={target} onChange={setTarget} />
      <TextField label={t("buckets.events.prefix")} value={prefix} onChange={setPrefix} />
      <TagEditor tags={tags} onChange={setTags} />
      <Switch
        label={t("buckets.replication.deleteMarkers")}
        checked={deleteMarkers}
        onChange={setDeleteMarkers}
      />
      <Switch label={t("buckets.replication.deletes")} checked={deletes} onChange={setDeletes} />
      <Switch label={t("buckets.replication.metadata")} checked={metadata} onChange={setMetadata} />
    </Dialog>
  );
}

export default function BucketReplication(
  { bucket, rules: initial, status, unavailable, canAdd }: BucketReplicationProps,
) {
  const rules = useList(() => bucketsApi.replication(bucket), initial);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<ReplicationRuleView | null>(null);
  return (
    <>
      {status
        ? (
          <section aria-label={t("buckets.replication.statusLabel")} className="mb-4">
            <ReplicationProgress bucket={bucket} initial={status} />
          </section>
        )
        : null}
      <div className="flex justify-end mb-4">
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={!canAdd}
          onClick={() => setAdding(true)}
        >
          {t("buckets.replication.add")}
        </button>
      </div>
      <DataTable<ReplicationRuleView>
        entity={t("buckets.entity.replicationRules")}
        id="replication rules"
        rows={rules.value}
        rowId={(r) => r.id}
        columns={[
          {
            id: "priority",
            label: t("buckets.replication.priority"),
            value: (r) => r.priority,
            sortable: true,
          },
          {
            id: "destination",
            label: t("buckets.replication.destination"),
            value: (r) => destinationName(r.destination.bucket),
          },
          { id: "prefix", label: t("buckets.events.prefix"), value: (r) => r.prefix },
          {
            id: "tags",
            label: t("buckets.replication.tags"),
            value: (r) => (r.tags ? t("common.word.yes") : t("common.word.no")),
          },
          { id: "status", label: t("common.word.status"), value: (r) => ruleStatusText(r.status) },
        ]}
        unavailable={unavailable}
        actions={[{ type: "delete", onSelect: setDeleting, disabled: () => rules.value.length > 1 }]}
      />
      {adding
        ? (
          <AddRuleDialog
            bucket={bucket}
            onClose={() => setAdding(false)}
            onSaved={() => (setAdding(false), rules.reload())}
          />
        )
        : null}
      <ConfirmDialog
        title={t("buckets.replication.deleteTitle")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => (await bucketsApi.deleteReplicationRule(bucket, deleting!.id),
          setDeleting(null),
          await rules.reload())}
      >
        {tNode("buckets.replication.deleteConfirm", { rule: <b translate="no">{deleting?.id}</b> })}
      </ConfirmDialog>
    </>
  );
}
