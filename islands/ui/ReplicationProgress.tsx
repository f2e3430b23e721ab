/**
 * How far a bucket's replication has got (the storage's replication metrics): versions replicated, pending
 * and failed, and the last error a target reported. "Refresh status" reads it again.
 */
import { useState } from "react";
import type { ReplicationStatusView } from "../../server/lib/contract/buckets.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { formatBytes, formatDateTime } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { t } from "../lib/i18n/t.ts";

export function ReplicationProgress({ bucket, initial }: { bucket: string; initial: ReplicationStatusView }) {
  const [status, setStatus] = useState(initial);
  const [busy, setBusy] = useState(false);
  async function refresh() {
    setBusy(true);
    try {
      const next = await bucketsApi.replicationStatus(bucket);
      if (next) setStatus(next);
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div data-testid="replication-status" className="text-sm mt-1">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3">
        <dt>{t("buckets.replication.replicated")}</dt>
        <dd data-testid="replication-replicated">
          {status.replicated} ({formatBytes(status.replicatedBytes)})
        </dd>
        <dt>{t("buckets.replication.pending")}</dt>
        <dd data-testid="replication-pending">{status.pending}</dd>
        <dt>{t("buckets.replication.failed")}</dt>
        <dd data-testid="replication-failed">{status.failed}</dd>
        {status.lastError
          ? (
            <>
              <dt>{t("buckets.replication.lastError")}</dt>
              <dd className="break-all" data-testid="replication-last-error" translate="no">
                {status.lastError} ({formatDateTime(status.lastErrorTime)})
              </dd>
            </>
          )
          : null}
      </dl>
      <button type="button" className="link link-primary text-left w-fit" disabled={busy} onClick={refresh}>
        {t("buckets.replication.refreshStatus")}
      </button>
    </div>
  );
}
