/**
 * A bucket's Summary (spec 2): each section reloads on its own with a spinner after any change; Access Policy,
 * Encryption and Reported Usage always, Replication, Object Locking, Versioning and Quota in distributed mode,
 * and Retention when object locking is on.
 */
import { type ReactNode, useState } from "react";
import type { BucketQuotaInfo, BucketRetention } from "../server/contract/buckets.ts";
import { AccessPolicyDialog, EncryptionDialog, type EncryptionType, QuotaDialog, RetentionDialog, VersioningDialog } from "./dialogs/BucketSettingsDialogs.tsx";
import { bucketsApi } from "./lib/api/buckets.ts";
import { ApiClientError } from "./lib/api/request.ts";
import { formatBytes, largestExactUnit } from "./lib/format.ts";
import { reportError } from "./lib/use_list.ts";

export interface SummaryState {
  access: string;
  size: number;
  encryption: { type: EncryptionType; kmsKey: string };
  versioning: boolean;
  locking: boolean;
  replication: boolean;
  quota: BucketQuotaInfo;
  retention: BucketRetention | null;
}

export interface BucketSummaryProps {
  bucket: string;
  distributed: boolean;
  initial: SummaryState;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** "30 days", "1 year" (singular when 1, spec 2 Summary). */
export const validityText = (r: BucketRetention) => `${r.validity} ${r.validity === 1 ? r.unit.replace(/s$/, "") : r.unit}`;

/** Loads what the Summary shows; each piece separately, so one failure leaves the rest. */
export async function loadSummary(bucket: string): Promise<Partial<SummaryState>> {
  const settle = async <T,>(work: Promise<T>, fallback: T) => {
    try {
      return await work;
    } catch (error) {
      // 'not found' encryption means disabled; a failed retention read means none (spec 2 §8).
      if (!(error instanceof ApiClientError && error.status === 404)) reportError(error);
      return fallback;
    }
  };
  const [info, enc, versioning, locking, quota, retention, rules] = await Promise.all([
    settle(bucketsApi.info(bucket), null),
    settle(bucketsApi.encryption(bucket), null),
    settle(bucketsApi.versioning(bucket), null),
    settle(bucketsApi.locking(bucket), null),
    settle(bucketsApi.quota(bucket), null),
    settle(bucketsApi.retention(bucket), null),
    settle(bucketsApi.replication(bucket), null),
  ]);
  return {
    ...(info ? { access: info.access ?? "PRIVATE", size: info.size } : {}),
    encryption: enc ? { type: enc.algorithm === "AES256" ? "sse-s3" : "sse-kms", kmsKey: enc.kmsMasterKeyID } : { type: "disabled", kmsKey: "" },
    ...(versioning ? { versioning: versioning.is_versioned } : {}),
    ...(locking ? { locking: locking.object_locking_enabled } : {}),
    ...(quota ? { quota } : {}),
    retention,
    ...(rules ? { replication: rules.length > 0 } : {}),
  };
}

function Section({ title, loading, children, testId }: { title: string; loading: boolean; children: ReactNode; testId: string }) {
  return (
    <section className="card bg-base-100 shadow-sm" data-testid={testId}>
      <div className="card-body p-4 gap-1">
        <h3 className="font-bold flex items-center gap-2">{title}{loading ? <span className="loading loading-spinner loading-xs" aria-label="Loading" /> : null}</h3>
        {children}
      </div>
    </section>
  );
}

function Clickable({ label, onClick }: { label: string; onClick: () => void }) {
  return <button type="button" className="link link-primary text-left w-fit" onClick={onClick}>{label}</button>;
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
      const next = await loadSummary(bucket);
      setState((s) => ({ ...s, ...next }));
    } finally {
      setLoading(false);
    }
  }
  const quota = state.quota.quota > 0 ? largestExactUnit(state.quota.quota) : null;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Section title="Access Policy" loading={loading} testId="summary-access">
          <Clickable label={capitalise(state.access)} onClick={() => setDialog("access")} />
        </Section>
        <Section title="Encryption" loading={loading} testId="summary-encryption">
          <Clickable label={state.encryption.type === "disabled" ? "Disabled" : `Enabled (${state.encryption.type.toUpperCase()})`} onClick={() => setDialog("encryption")} />
        </Section>
        <Section title="Reported Usage" loading={loading} testId="summary-usage">
          <span>{formatBytes(state.size)}</span>
        </Section>
        {distributed
          ? (
            <>
              <Section title="Replication" loading={loading} testId="summary-replication"><span>{state.replication ? "Enabled" : "Disabled"}</span></Section>
              <Section title="Object Locking" loading={loading} testId="summary-locking"><span>{state.locking ? "Enabled" : "Disabled"}</span></Section>
              <Section title="Versioning" loading={loading} testId="summary-versioning">
                <Clickable label={state.versioning ? "Enabled" : "Disabled"} onClick={() => setDialog("versioning")} />
              </Section>
              <Section title="Quota" loading={loading} testId="summary-quota">
                <Clickable label={quota ? "Enabled" : "Disabled"} onClick={() => setDialog("quota")} />
                {quota ? <div className="badge badge-outline">{capitalise(state.quota.type)} Quota: {quota.amount} {quota.unit}</div> : null}
              </Section>
            </>
          )
          : null}
        {state.locking
          ? (
            <Section title="Retention" loading={loading} testId="summary-retention">
              <div>Status: <Clickable label={state.retention ? "Enabled" : "Disabled"} onClick={() => setDialog("retention")} /></div>
              {state.retention
                ? (
                  <>
                    <div>Mode: {capitalise(state.retention.mode)}</div>
                    <div>Validity: {validityText(state.retention)}</div>
                  </>
                )
                : null}
            </Section>
          )
          : null}
      </div>
      {dialog === "access" ? <AccessPolicyDialog bucket={bucket} current={state.access} onClose={() => setDialog(null)} onSaved={reload} /> : null}
      {dialog === "encryption" ? <EncryptionDialog bucket={bucket} current={state.encryption.type} kmsKey={state.encryption.kmsKey} onClose={() => setDialog(null)} onSaved={reload} /> : null}
      {dialog === "versioning" ? <VersioningDialog bucket={bucket} enabled={state.versioning} onClose={() => setDialog(null)} onSaved={reload} /> : null}
      {dialog === "quota" ? <QuotaDialog bucket={bucket} quota={state.quota.quota} onClose={() => setDialog(null)} onSaved={reload} /> : null}
      {dialog === "retention" ? <RetentionDialog bucket={bucket} current={state.retention} onClose={() => setDialog(null)} onSaved={reload} /> : null}
    </>
  );
}
