/**
 * Replication setup (spec 2): the remote-target form shared by the single-bucket dialog and the two-step
 * 'Set Multiple Bucket Replication' wizard (remote configuration → assign remote buckets → results; failed
 * buckets stay with an error icon whose tooltip is the server's reason, successes drop after 500 ms).
 */
import { useState } from "react";
import type { MultiReplicationInput } from "../../server/lib/contract/buckets.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { SIZE_UNITS, type SizeUnit, toBytes } from "../lib/format.ts";
import { Dialog, errorMessage, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch, TextField } from "../ui/fields.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { Wizard } from "../ui/Wizard.tsx";
import { t } from "../lib/i18n/t.ts";

const BANDWIDTH_UNITS = SIZE_UNITS.filter((u) => u !== "B").map((u) => ({ value: u, label: `${u}/s` }));

export interface RemoteForm {
  accessKey: string;
  secretKey: string;
  targetURL: string;
  useTLS: boolean;
  region: string;
  syncMode: "async" | "sync";
  bandwidth: string;
  bandwidthUnit: SizeUnit;
  healthCheckPeriod: string;
}

export const DEFAULT_REMOTE: RemoteForm = {
  accessKey: "",
  secretKey: "",
  targetURL: "",
  useTLS: true,
  region: "",
  syncMode: "async",
  bandwidth: "100",
  bandwidthUnit: "GiB",
  healthCheckPeriod: "60",
};

export const remoteValid = (r: RemoteForm) =>
  r.accessKey.trim() !== "" && r.secretKey !== "" && r.targetURL.trim() !== "" && Number(r.bandwidth) >= 0;

/** The target URL with the scheme the TLS switch selects (spec 2 §9). */
export function targetUrlOf(r: RemoteForm): string {
  const host = r.targetURL.trim().replace(/^https?:\/\//, "");
  return `${r.useTLS ? "https" : "http"}://${host}`;
}

/** The request fields the remote form fixes; bandwidth is 0 in sync mode (spec 2 §9). */
export function replicationRequest(r: RemoteForm): Partial<MultiReplicationInput> {
  return {
    accessKey: r.accessKey.trim(),
    secretKey: r.secretKey,
    targetURL: targetUrlOf(r),
    region: r.region.trim(),
    syncMode: r.syncMode,
    bandwidth: r.syncMode === "sync" ? 0 : toBytes(Number(r.bandwidth), r.bandwidthUnit),
    healthCheckPeriod: Number(r.healthCheckPeriod) || 60,
  };
}

export function RemoteFields(
  { value, onChange }: { value: RemoteForm; onChange: (value: RemoteForm) => void },
) {
  const set = (change: Partial<RemoteForm>) => onChange({ ...value, ...change });
  return (
    <>
      <div role="note" className="alert alert-warning text-sm mb-3">
        {t("buckets.replication.rootWarning")}
      </div>
      <TextField
        label={t("buckets.replication.targetUrl")}
        value={value.targetURL}
        onChange={(targetURL) => set({ targetURL })}
        placeholder="play.min.io:9000"
      />
      <Switch
        label={t("buckets.replication.useTls")}
        checked={value.useTLS}
        onChange={(useTLS) => set({ useTLS })}
      />
      <div className="grid md:grid-cols-2 gap-x-4">
        <TextField
          label={t("buckets.replication.accessKey")}
          value={value.accessKey}
          onChange={(accessKey) => set({ accessKey })}
        />
        <TextField
          label={t("buckets.replication.secretKey")}
          type="password"
          value={value.secretKey}
          onChange={(secretKey) => set({ secretKey })}
        />
        <TextField
          label={t("buckets.replication.region")}
          value={value.region}
          onChange={(region) => set({ region })}
        />
        <SelectField
          label={t("buckets.replication.mode")}
          value={value.syncMode}
          options={[
            { value: "async", label: t("buckets.replication.async") },
            { value: "sync", label: t("buckets.replication.sync") },
          ]}
          onChange={(syncMode) => set({ syncMode })}
        />
      </div>
      {value.syncMode === "async"
        ? (
          <NumberWithUnit
            label={t("buckets.replication.bandwidth")}
            value={value.bandwidth}
            onChange={(bandwidth) => set({ bandwidth })}
            unit={value.bandwidthUnit}
            units={BANDWIDTH_UNITS}
            onUnitChange={(bandwidthUnit) => set({ bandwidthUnit })}
          />
        )
        : null}
      <TextField
        label={t("buckets.replication.healthCheck")}
        type="number"
        value={value.healthCheckPeriod}
        onChange={(healthCheckPeriod) => set({ healthCheckPeriod })}
      />
    </>
  );
}

export function MultiReplicationWizard(
  { open, buckets, onClose }: { open: boolean; buckets: string[]; onClose: (changed: boolean) => void },
) {
  const [remote, setRemote] = useState(DEFAULT_REMOTE);
  const [remoteBuckets, setRemoteBuckets] = useState<string[]>([]);
  const [pending, setPending] = useState<string[]>(buckets);
  const [assigned, setAssigned] = useState<Record<string, string>>({});
  const [failures, setFailures] = useState<Record<string, string>>({});
  const action = useDialogAction();

  async function listRemote() {
    try {
      const list = await bucketsApi.externalBuckets({
        accessKey: remote.accessKey.trim(),
        secretKey: remote.secretKey,
        targetURL: targetUrlOf(remote),
        useTLS: remote.useTLS,
        region: remote.region.trim(),
      });
      setRemoteBuckets(list.map((b) => b.name));
      action.clear();
    } catch (error) {
      action.setMessage(errorMessage(error));
      throw error;
    }
  }

  function create() {
    action.run(async () => {
      const result = await bucketsApi.replicate({
        ...replicationRequest(remote),
        bucketsRelation: pending.map((originBucket) => ({
          originBucket,
          destinationBucket: assigned[originBucket],
        })),
      });
      const failed = Object.fromEntries(
        result.replicationState.filter((s) => s.errorString).map((s) => [s.originBucket, s.errorString]),
      );
      if (Object.keys(failed).length === 0) {
        showSnackbar(t("buckets.replication.done"));
        return onClose(true);
      }
      setFailures(failed);
      setTimeout(() => setPending((p) => p.filter((b) => b in failed)), 500);
    });
  }

  return (
    <Dialog
      title={t("buckets.replication.multiTitle")}
      open={open}
      onClose={() => onClose(false)}
      message={action.message}
      onMessageDone={action.clear}
      wide
    >
      <Wizard
        busy={action.busy}
        onFinish={create}
        steps={[
          {
            title: t("buckets.replication.remoteStep"),
            isValid: remoteValid(remote),
            onNext: listRemote,
            content: <RemoteFields value={remote} onChange={setRemote} />,
          },
          {
            title: t("buckets.replication.assignStep"),
            isValid: pending.length > 0 && pending.every((b) => assigned[b]),
            finishLabel: t("common.action.create"),
            content: (
              <table className="table table-sm" data-testid="replication-assignments">
                <thead>
                  <tr>
                    <th>{t("buckets.replication.localBucket")}</th>
                    <th>{t("buckets.replication.remoteBucket")}</th>
                    <th>
                      <span className="sr-only">{t("buckets.replication.result")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pending.map((bucket) => (
                    <tr key={bucket} data-row={bucket}>
                      <td className="break-all" translate="no">{bucket}</td>
                      <td>
                        <select
                          className="select select-sm border-base-300"
                          aria-label={t("buckets.replication.remoteBucketFor", { bucket })}
                          value={assigned[bucket] ?? ""}
                          onChange={(e) => setAssigned({ ...assigned, [bucket]: e.target.value })}
                        >
                          <option value="">{t("buckets.replication.chooseBucket")}</option>
                          {remoteBuckets.map((r) => <option key={r} value={r}>{r}</option>)}
                        </select>
                      </td>
                      <td>
                        {failures[bucket]
                          ? (
                            <span
                              className="tooltip tooltip-left text-error"
                              data-tip={failures[bucket]}
                              aria-label={t("buckets.replication.error", { reason: failures[bucket] })}
                              role="img"
                              data-testid={`replication-error-${bucket}`}
                            >
                              ⚠
                            </span>
                          )
                          : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ),
          },
        ]}
      />
    </Dialog>
  );
}
