/**
 * A bucket's Summary (spec 2 Summary) as one view model: the page renders it on the server and the island
 * reloads it after every change through GET /api/v1/buckets/{bucket}/summary, so the rules live here once:
 * which cards show (distributed mode, object locking), what "not configured" means, and that a denied read
 * says so in its card ("Access denied"), never "Disabled".
 */
import {
  type BucketQuotaInfo,
  type BucketRetention,
  type BucketSummaryView,
  type EncryptionType,
  type ReplicationStatusView,
  SUMMARY_CARDS,
  type SummaryCard,
} from "../../lib/contract/buckets.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { toApiError } from "../http/errors.ts";
import { replicationStatusIfAllowed } from "./bucket_replication.ts";
import { getBucketReplication } from "../../lib/s3/ops/replication.ts";
import * as settings from "./bucket_settings.ts";
import { type BucketMeta, bucketMeta } from "./buckets.ts";
import type { BucketDetails } from "../../lib/s3/admin/info.ts";
import { readParts, viewFailures } from "./screen_parts.ts";
import { type MessageKey, t } from "../../../islands/lib/i18n/t.ts";

interface SummaryParts extends Record<string, unknown> {
  encryption: { type: EncryptionType; kmsKey: string } | null;
  versioning: boolean | null;
  locking: boolean | null;
  replication: boolean | null;
  replicationStatus: ReplicationStatusView | null;
  quota: BucketQuotaInfo | null;
  retention: BucketRetention | null;
}

/** The card's title in the request's language: a failed read names it in the page's banner. */
const titleOf = (card: SummaryCard) => t(`buckets.summary.card.${card}` as MessageKey);

/** Reads with `value` standing for a failure `isNone` accepts as "not configured". */
const orNone = <V>(read: Promise<V>, isNone: (status: number) => boolean, value: V) =>
  read.catch((e) => (isNone(toApiError(e).status) ? value : Promise.reject(e)));

async function encryptionOf(client: S3Client, bucket: string): Promise<SummaryParts["encryption"]> {
  // 404: none configured; 501: the server cannot encrypt buckets by default, so none is.
  const enc = await orNone(
    settings.encryptionInfo(client, bucket),
    (status) => status === 404 || status === 501,
    null,
  );
  if (!enc) return { type: "disabled", kmsKey: "" };
  return { type: enc.algorithm === "AES256" ? "sse-s3" : "sse-kms", kmsKey: enc.kmsMasterKeyID };
}

/**
 * The Summary of `bucket` as the account may read it. `meta` is the bucket's header read when the caller has
 * it already (the page reads it for its header); a bucket that is missing or denied fails the whole view (404,
 * 403), while each card's read fails on its own.
 */
export async function bucketSummary(
  client: S3Client,
  bucket: string,
  options: { distributed: boolean; meta?: Promise<BucketMeta>; plainVersioning?: boolean },
): Promise<BucketSummaryView> {
  const { distributed } = options;
  const meta = options.meta ?? bucketMeta(client, bucket);
  // Versioning is plain S3: a server that is not MinIO shows its card when it implements it.
  const versioningShown = distributed || !!options.plainVersioning;
  // Cards shown only in distributed mode are not read otherwise (spec 2 Summary).
  const ifShown = <V>(read: () => Promise<V>) => (distributed ? read() : Promise.resolve(null));
  // MinIO's account info, which the header reads anyway, reports the bucket's versioning, locking,
  // replication and quota. Where the account's policy lets it read a setting itself, the card shows what the
  // server said there, one storage call fewer each; otherwise (the policy does not allow it, a server that
  // reports no details) the setting's own read decides, and a refusal says "Access denied" in its card.
  const reported = <V>(
    action: string,
    value: (details: BucketDetails) => V | undefined,
    read: () => Promise<V>,
  ) =>
    meta.then((m) => {
      const said = m.details && m.can(action) ? value(m.details) : undefined;
      return said === undefined ? read() : said;
    }, read);
  const lock = settings.lockReader(client, bucket);
  const versioned = versioningShown
    ? reported(
      "s3:GetBucketVersioning",
      (d) => d.versioning,
      () => settings.isVersioned(client, bucket).then((v) => v.is_versioned),
    )
    : Promise.resolve(null);
  versioned.catch(() => {}); // reported by its card
  // Object lock and replication both need versioning on: S3 and MinIO lock and replicate only versioned
  // buckets, and refuse to suspend versioning on a bucket that has either. So where the versioning read says
  // off, neither configuration is asked for (two storage calls fewer on most Summaries); where versioning was
  // not read (not shown, or denied), both are read.
  const unlessUnversioned = <V>(none: V, read: () => Promise<V>) =>
    versioned.then((on) => (on === false ? none : read()), read);
  // A server without object lock (501) has no locked buckets.
  const locking = unlessUnversioned(
    false,
    () =>
      reported(
        "s3:GetBucketObjectLockConfiguration",
        (d) => d.locking,
        () => orNone(lock.locking().then((l) => l.object_locking_enabled), (status) => status === 501, false),
      ),
  );
  locking.catch(() => {}); // reported by its card
  // One read of the rules serves two cards: the status shows only beside rules, so a bucket without any is
  // not asked for it (two storage calls fewer). When the rules cannot be read, the status is read on its own
  // as before, and each card says what failed.
  const hasRules = ifShown(() =>
    unlessUnversioned(
      false,
      () =>
        reported(
          "s3:GetReplicationConfiguration",
          (d) => d.replication,
          () => getBucketReplication(client, bucket).then((config) => config.rules.length > 0),
        ),
    )
  );
  hasRules.catch(() => {}); // reported by the cards below
  const [info, { data, failures }] = await Promise.all([
    meta.then((m) => m.info),
    readParts<SummaryParts>({
      encryption: [() => encryptionOf(client, bucket), null, titleOf("encryption")],
      versioning: [() => versioned, null, titleOf("versioning")],
      // Read in every mode: Retention shows whenever locking is on.
      locking: [() => locking, null, titleOf("locking")],
      replication: [() => hasRules, null, titleOf("replication")],
      replicationStatus: [
        () =>
          hasRules.then(
            (on) => (on ? replicationStatusIfAllowed(client, bucket) : null),
            () => replicationStatusIfAllowed(client, bucket),
          ),
        null,
        t("buckets.part.replicationStatus"),
      ],
      quota: [
        () =>
          ifShown(() =>
            reported(
              "admin:GetBucketQuota",
              (d) => (d.quota === undefined ? undefined : settings.quotaInfo(d.quota)),
              () => settings.getQuota(client, bucket),
            )
          ),
        null,
        titleOf("quota"),
      ],
      // Any failed retention read means none (spec 2 §8), except a denied one (or a refused session). Shown only
      // beside locking, so read only then (or when locking could not be read: its card says why).
      retention: [
        () => {
          const read = () => orNone(lock.retention(), (status) => status !== 403 && status !== 401, null);
          return locking.then((on) => (on ? read() : null), read);
        },
        null,
        titleOf("retention"),
      ],
    }),
  ]);
  const unavailable: BucketSummaryView["unavailable"] = {};
  for (const { key, error } of failures) {
    if (SUMMARY_CARDS.some((c) => c.id === key)) unavailable[key as SummaryCard] = error.message;
  }
  const cards = SUMMARY_CARDS.filter((c) =>
    c.id === "retention"
      ? data.locking === true
      : !("distributedOnly" in c) || distributed || (c.id === "versioning" && versioningShown)
  ).map((c) => c.id);
  return {
    cards,
    access: info.access ?? "PRIVATE",
    size: info.size,
    ...data,
    unavailable,
    failures: viewFailures(failures),
  };
}
