/**
 * A bucket's Summary (spec 2): the cards the server chose (Access Policy, Encryption and Reported Usage always,
 * Replication, Object Locking, Versioning and Quota in distributed mode, Retention while object locking is on),
 * each saying why in its place when its read failed. After any change the whole view model is read again
 * through the one endpoint the page was rendered from (GET /api/v1/buckets/{bucket}/summary), with a spinner in
 * every card until it answers.
 */
import { type ReactNode, useState } from "react";
import type { BucketRetention, BucketSummaryView, SummaryCard } from "../server/lib/contract/buckets.ts";
import {
  AccessPolicyDialog,
  EncryptionDialog,
  QuotaDialog,
  RetentionDialog,
  VersioningDialog,
} from "./dialogs/BucketSettingsDialogs.tsx";
import { bucketsApi } from "./lib/api/buckets.ts";
import { changedBucketAccess } from "./lib/bucket_state.ts";
import { accessLevelText } from "./lib/bucket_texts.ts";
import { formatBytes, largestExactUnit } from "./lib/format.ts";
import { type MessageKey, t } from "./lib/i18n/t.ts";
import { capitalize } from "./lib/messages.ts";
import { useView } from "./lib/use_list.ts";
import { ReplicationProgress } from "./ui/ReplicationProgress.tsx";

export interface BucketSummaryProps {
  bucket: string;
  initial: BucketSummaryView;
}

/** "30 days", "1 year" (singular when 1, spec 2 Summary). */
export const validityText = (r: BucketRetention) =>
  r.unit === "years"
    ? t("buckets.summary.years", { count: String(r.validity) })
    : t("buckets.summary.days", { count: String(r.validity) });

/** A Summary card's title ("Access Policy"). */
export const cardTitle = (card: SummaryCard) => t(`buckets.summary.card.${card}` as MessageKey);

/** "Compliance" or "Governance". */
const modeText = (mode: string) =>
  mode === "governance" ? t("buckets.retention.governance") : t("buckets.retention.compliance");

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
            ? (
              <span
                role="status"
                className="loading loading-spinner loading-xs"
                aria-label={t("buckets.summary.loading")}
              />
            )
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

/** What a card shows when its read succeeded; `open` opens the dialog its value leads to. */
function cardContent(
  card: SummaryCard,
  view: BucketSummaryView,
  bucket: string,
  open: (d: DialogName) => void,
) {
  const onOff = (on: boolean | null) => (on ? t("common.word.enabled") : t("common.word.disabled"));
  switch (card) {
    case "access":
      return <Clickable label={accessLevelText(view.access)} onClick={() => open("access")} />;
    case "encryption": {
      const type = view.encryption?.type ?? "disabled";
      const label = type === "disabled"
        ? t("common.word.disabled")
        : t("buckets.summary.encryptionEnabled", { type: type.toUpperCase() });
      return <Clickable label={label} onClick={() => open("encryption")} />;
    }
    case "usage":
      return <span>{formatBytes(view.size)}</span>;
    case "replication":
      return (
        <>
          <span>{onOff(view.replication)}</span>
          {view.replication && view.replicationStatus
            ? (
              <ReplicationProgress
                key={JSON.stringify(view.replicationStatus)}
                bucket={bucket}
                initial={view.replicationStatus}
              />
            )
            : null}
        </>
      );
    case "locking":
      return <span>{onOff(view.locking)}</span>;
    case "versioning":
      return <Clickable label={onOff(view.versioning)} onClick={() => open("versioning")} />;
    case "quota": {
      const quota = view.quota && view.quota.quota > 0 ? largestExactUnit(view.quota.quota) : null;
      return (
        <>
          <Clickable label={onOff(!!quota)} onClick={() => open("quota")} />
          {quota
            ? (
              <div className="badge badge-outline">
                {t(view.quota!.type === "fifo" ? "buckets.summary.quotaFifo" : "buckets.summary.quotaHard", {
                  amount: String(quota.amount),
                  unit: quota.unit,
                })}
              </div>
            )
            : null}
        </>
      );
    }
    case "retention":
      return (
        <>
          <div>
            {t("buckets.summary.retentionStatus")}{" "}
            <Clickable label={onOff(!!view.retention)} onClick={() => open("retention")} />
          </div>
          {view.retention
            ? (
              <>
                <div>{t("buckets.summary.retentionMode", { mode: modeText(view.retention.mode) })}</div>
                <div>
                  {t("buckets.summary.retentionValidity", { validity: validityText(view.retention) })}
                </div>
              </>
            )
            : null}
        </>
      );
  }
}

export default function BucketSummary({ bucket, initial }: BucketSummaryProps) {
  const { view, loading, reload } = useView(() => bucketsApi.summary(bucket), initial);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  async function handleSaved() {
    setDialog(null);
    const next = await reload();
    if (next) changedBucketAccess.value = next.access;
  }
  const reason = (card: SummaryCard) => view.unavailable[card];
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {view.cards.map((card) => (
          <Section
            key={card}
            title={cardTitle(card)}
            loading={loading}
            testId={`summary-${card}`}
            unavailable={reason(card) && capitalize(reason(card)!)}
          >
            {cardContent(card, view, bucket, setDialog)}
          </Section>
        ))}
      </div>
      {dialog === "access"
        ? (
          <AccessPolicyDialog
            bucket={bucket}
            current={view.access}
            onClose={() => setDialog(null)}
            onSaved={handleSaved}
          />
        )
        : null}
      {dialog === "encryption"
        ? (
          <EncryptionDialog
            bucket={bucket}
            current={view.encryption?.type ?? "disabled"}
            kmsKey={view.encryption?.kmsKey ?? ""}
            onClose={() => setDialog(null)}
            onSaved={handleSaved}
          />
        )
        : null}
      {dialog === "versioning"
        ? (
          <VersioningDialog
            bucket={bucket}
            enabled={!!view.versioning}
            onClose={() => setDialog(null)}
            onSaved={handleSaved}
          />
        )
        : null}
      {dialog === "quota"
        ? (
          <QuotaDialog
            bucket={bucket}
            quota={view.quota ?? { quota: 0, type: "hard" }}
            onClose={() => setDialog(null)}
            onSaved={handleSaved}
          />
        )
        : null}
      {dialog === "retention"
        ? (
          <RetentionDialog
            bucket={bucket}
            current={view.retention}
            onClose={() => setDialog(null)}
            onSaved={handleSaved}
          />
        )
        : null}
    </>
  );
}
