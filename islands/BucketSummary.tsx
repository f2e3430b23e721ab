/**
 * A bucket's Summary (spec 2): each section reloads on its own with a spinner after any change; Access Policy,
 * Encryption and Reported Usage always, Replication, Object Locking, Versioning and Quota in distributed mode,
 * and Retention when object locking is on.
 */
import { type ReactNode, useState } from "react";
import type {
  BucketQuotaInfo,
  BucketRetention,
  ReplicationStatusView,
} from "../server/lib/contract/buckets.ts";
import {
  AccessPolicyDialog,
  EncryptionDialog,
  type EncryptionType,
  QuotaDialog,
  RetentionDialog,
  VersioningDialog,
} from "./dialogs/BucketSettingsDialogs.tsx";
import { bucketsApi } from "./lib/api/buckets.ts";
import { ApiClientError } from "./lib/request.ts";
import { changedBucketAccess } from "./lib/bucket_state.ts";
import { capitalizeWord, formatBytes, largestExactUnit } from "./lib/format.ts";
import { reportError } from "./lib/use_list.ts";
import { ReplicationProgress } from "./ui/ReplicationProgress.tsx";

/** The sections read separately, each of which can be denied on its own. */
export type SummarySection = "encryption" | "versioning" | "locking" | "replication" | "quota" | "retention";

export interface SummaryState {
  access: string;
  size: number;
  encryption: { type: EncryptionType; kmsKey: string };
  versioning: boolean;
  locking: boolean;
  replication: boolean;
  /** Replicated, pending and failed versions and the last error (null: no replication configuration). */
  replicationStatus: ReplicationStatusView | null;
  quota: BucketQuotaInfo;
  retention: BucketRetention | null;
  /** Sections that could not be read, with the reason shown in their place ("Access denied"), never "Disabled". */
  unavailable: Partial<Record<SummarySection, string>>;
}

export interface BucketSummaryProps {
  bucket: string;
  distributed: boolean;
  initial: SummaryState;
}

/** "30 days", "1 year" (singular when 1, spec 2 Summary). */
export const validityText = (r: BucketRetention) =>
  `${r.validity} ${r.validity === 1 ? r.unit.replace(/s$/, "") : r.unit}`;

/**
 * Loads what the Summary shows; each piece separately, so one failure leaves the rest as they were. "Not
 * found" means not configured for encryption and retention, and any failed retention read means none (spec 2
 * §8); a denied read marks its section; other failures go to the banner.
 */
export async function loadSummary(bucket: string, distributed: boolean): Promise<Partial<SummaryState>> {
  const unavailable: SummaryState["unavailable"] = {};
  const read = async <T,>(
    section: SummarySection | null,
    work: () => Promise<T>,
    notConfigured?: T,
  ): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      if (section && error instanceof ApiClientError && error.status === 403) {
        unavailable[section] = error.message;
      } else if (
        notConfigured !== undefined &&
        (section === "retention" || (error instanceof ApiClientError && error.status === 404))
      ) return notConfigured;
      else reportError(error);
      return undefined;
    }
  };
  // Versioning, quota and replication are shown only in distributed mode (spec 2 Summary), so read only then.
  const [info, enc, versioning, locking, quota, retention, rules, replicationStatus] = await Promise.all([
    read(null, () => bucketsApi.info(bucket)),
    read("encryption", () => bucketsApi.encryption(bucket), null),
    distributed ? read("versioning", () => bucketsApi.versioning(bucket)) : undefined,
    read("locking", () => bucketsApi.locking(bucket)),
    distributed ? read("quota", () => bucketsApi.quota(bucket)) : undefined,
    read("retention", () => bucketsApi.retention(bucket), null),
    distributed ? read("replication", () => bucketsApi.replication(bucket)) : undefined,
    distributed
      ? read(
        null,
        () =>
          bucketsApi.replicationStatus(bucket).catch((
            e,
          ) => (e instanceof ApiClientError && e.status === 403 ? null : Promise.reject(e))),
      )
      : undefined,
  ]);
  const next: Partial<SummaryState> = { unavailable };
  if (info) Object.assign(next, { access: info.access ?? "PRIVATE", size: info.size });
  if (enc !== undefined) {
    next.encryption = enc
      ? { type: enc.algorithm === "AES256" ? "sse-s3" : "sse-kms", kmsKey: enc.kmsMasterKeyID }
      : { type: "disabled", kmsKey: "" };
  }
  if (versioning) next.versioning = versioning.is_versioned;
  if (locking) next.locking = locking.object_locking_enabled;
  if (quota) next.quota = quota;
  if (retention !== undefined) next.retention = retention;
  if (rules) next.replication = rules.length > 0;
  if (replicationStatus !== undefined) next.replicationStatus = replicationStatus;
  return next;
}

/** One Summary card; when its read failed, the reason ("Access denied") stands in place of its content. */
function Section(
  { title, loading, children, testId, unavailable }: {
    title: string;
    loading: boolean;
    children: ReactNode;
    testId: string;
    unavailable?: string;
  },
) {
  return (
    <section className="card bg-base-100 shadow-sm" data-testid={testId}>
      <div className="card-body p-4 gap-1">
        <h3 className="font-bold flex items-center gap-2">
          {title}
          {loading
            ? <span role="status" className="loading loading-spinner loading-xs" aria-label="Loading" />
            : null}
        </h3>
        {unavailable ? <span className="text-base-content/70">{unavailable}</span> : children}
      </div>
    </section>
  );
}

function Clickable({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="link link-primary text-left w-fit" onClick={onClick}>{label}</button>
  );
}

type DialogName = "access" | "encryption" | "versioning" | "quota" | "retention";

export default function BucketSummary({ bucket, distributed, initial }: BucketSummaryProps) {
  const [state, setState] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  async function reload() {
    setDialog(null);
    setLoading(true);
    try {
      const next = await loadSummary(bucket, distributed);
      setState((s) => ({ ...s, ...next }));
      if (next.access) changedBucketAccess.value = next.access;
    } finally {
      setLoading(false);
    }
  }
  const quota = state.quota.quota > 0 ? largestExactUnit(state.quota.quota) : null;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Section title="Access Policy" loading={loading} testId="summary-access">
          <Clickable label={capitalizeWord(state.access)} onClick={() => setDialog("access")} />
        </Section>
        <Section
          title="Encryption"
          loading={loading}
          testId="summary-encryption"
          unavailable={state.unavailable.encryption}
        >
          <Clickable
            label={state.encryption.type === "disabled"
              ? "Disabled"
              : `Enabled (${state.encryption.type.toUpperCase()})`}
            onClick={() => setDialog("encryption")}
          />
        </Section>
        <Section title="Reported Usage" loading={loading} testId="summary-usage">
          <span>{formatBytes(state.size)}</span>
        </Section>
        {distributed
          ? (
            <>
              <Section
                title="Replication"
                loading={loading}
                testId="summary-replication"
                unavailable={state.unavailable.replication}
              >
                <span>{state.replication ? "Enabled" : "Disabled"}</span>
                {state.replication && state.replicationStatus
                  ? (
                    <ReplicationProgress
                      key={JSON.stringify(state.replicationStatus)}
                      bucket={bucket}
                      initial={state.replicationStatus}
                    />
                  )
                  : null}
              </Section>
              <Section
                title="Object Locking"
                loading={loading}
                testId="summary-locking"
                unavailable={state.unavailable.locking}
              >
                <span>{state.locking ? "Enabled" : "Disabled"}</span>
              </Section>
              <Section
                title="Versioning"
                loading={loading}
                testId="summary-versioning"
                unavailable={state.unavailable.versioning}
              >
                <Clickable
                  label={state.versioning ? "Enabled" : "Disabled"}
                  onClick={() => setDialog("versioning")}
                />
              </Section>
              <Section
                title="Quota"
                loading={loading}
                testId="summary-quota"
                unavailable={state.unavailable.quota}
              >
                <Clickable label={quota ? "Enabled" : "Disabled"} onClick={() => setDialog("quota")} />
                {quota
                  ? (
                    <div className="badge badge-outline">
                      {capitalizeWord(state.quota.type)} Quota: {quota.amount} {quota.unit}
                    </div>
                  )
                  : null}
              </Section>
            </>
          )
          : null}
        {state.locking
          ? (
            <Section
              title="Retention"
              loading={loading}
              testId="summary-retention"
              unavailable={state.unavailable.retention}
            >
              <div>
                Status:{" "}
                <Clickable
                  label={state.retention ? "Enabled" : "Disabled"}
                  onClick={() => setDialog("retention")}
                />
              </div>
              {state.retention
                ? (
                  <>
                    <div>Mode: {capitalizeWord(state.retention.mode)}</div>
                    <div>Validity: {validityText(state.retention)}</div>
                  </>
                )
                : null}
            </Section>
          )
          : null}
      </div>
      {dialog === "access"
        ? (
          <AccessPolicyDialog
            bucket={bucket}
            current={state.access}
            onClose={() => setDialog(null)}
            onSaved={reload}
          />
        )
        : null}
      {dialog === "encryption"
        ? (
          <EncryptionDialog
            bucket={bucket}
            current={state.encryption.type}
            kmsKey={state.encryption.kmsKey}
            onClose={() => setDialog(null)}
            onSaved={reload}
          />
        )
        : null}
      {dialog === "versioning"
        ? (
          <VersioningDialog
            bucket={bucket}
            enabled={state.versioning}
            onClose={() => setDialog(null)}
            onSaved={reload}
          />
        )
        : null}
      {dialog === "quota"
        ? <QuotaDialog bucket={bucket} quota={state.quota} onClose={() => setDialog(null)} onSaved={reload} />
        : null}
      {dialog === "retention"
        ? (
          <RetentionDialog
            bucket={bucket}
            current={state.retention}
            onClose={() => setDialog(null)}
            onSaved={reload}
          />
        )
        : null}
    </>
  );
}
