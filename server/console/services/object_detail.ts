/**
 * One object's page (spec 3 §2.4): the version asked for, or the latest, with its metadata, tags, retention
 * and legal hold, and the bucket's versioning and locking. Only reading the object itself (HEAD, s3:GetObject)
 * is required: every other read the user may not make leaves its part unknown, because the usual read policy
 * (s3:ListBucket and s3:GetObject) allows none of them and the page must still open. A key whose latest
 * version is a delete marker opens as that marker, so its older versions can be reached and restored.
 */
import type {
  FolderVersioning,
  ObjectDetail,
  ObjectItem,
  UnreadablePart,
} from "../../lib/contract/objects.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { isNotImplemented } from "../../lib/s3/probe.ts";
import { getBucketVersioning, getObjectLockConfig } from "../../lib/s3/ops/bucket_config.ts";
import { getObjectLegalHold, getObjectRetention, getObjectTagging } from "../../lib/s3/ops/object_lock.ts";
import { headObject, type ObjectInfo } from "../../lib/s3/ops/objects.ts";
import { lowerMode, versionsOf } from "./objects.ts";

const isDenied = (error: unknown) => error instanceof S3Error && error.status === 403;

/** The read's answer, or null when the storage refuses it to this user. */
async function unlessDenied<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isDenied(error)) return null;
    throw error;
  }
}

/** Whether the bucket has versioning on; null when the user may not read that (the folder view then hides Rewind). */
export async function folderVersioning(client: S3Client, bucket: string): Promise<FolderVersioning> {
  // A server that does not implement versioning (s3rver) has unversioned buckets, not an error.
  const versioning = await unlessDenied(
    getBucketVersioning(client, bucket).catch((error) => {
      if (isNotImplemented(error)) return { status: "" };
      throw error;
    }),
  );
  return { is_versioned: versioning ? versioning.status === "Enabled" : null };
}

/** Object locking: null when refused; any other failure (a server without object lock) reads as none. */
const bucketLocking = (client: S3Client, bucket: string) =>
  getObjectLockConfig(client, bucket).then((c) => c.enabled, (error) => (isDenied(error) ? null : false));

/**
 * A lock read asked for when HEAD did not report it (MinIO leaves retention and legal hold out of HEAD for
 * a user who may not read them): "unknown" when refused, undefined when the bucket cannot hold one.
 */
async function readLock<T>(read: () => Promise<T>): Promise<T | "unknown" | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isDenied(error)) return "unknown";
    if (error instanceof S3Error && error.status < 500) return undefined;
    throw error;
  }
}

async function lockState(
  client: S3Client,
  target: { bucket: string; key: string; versionId?: string },
  info: ObjectInfo,
  locking: boolean | null,
): Promise<
  Pick<ObjectDetail, "legal_hold_status" | "retention_mode" | "retention_until_date"> & {
    unreadable: UnreadablePart[];
  }
> {
  const { bucket, key, versionId } = target;
  const ask = locking !== false;
  const [hold, retention] = await Promise.all([
    info.legalHold !== undefined || !ask
      ? info.legalHold
      : readLock(() => getObjectLegalHold(client, bucket, key, versionId)),
    info.retentionMode !== undefined || !ask
      ? (info.retentionMode ? { mode: info.retentionMode, until: info.retainUntil ?? "" } : undefined)
      : readLock(() => getObjectRetention(client, bucket, key, versionId)),
  ]);
  const unreadable: UnreadablePart[] = [];
  if (hold === "unknown") unreadable.push("legal_hold");
  if (retention === "unknown") unreadable.push("retention");
  const known = retention && retention !== "unknown" ? retention : undefined;
  return {
    legal_hold_status: hold === undefined || hold === "unknown" ? undefined : hold ? "ON" : "OFF",
    retention_mode: lowerMode(known?.mode),
    retention_until_date: known?.until,
    unreadable,
  };
}

/**
 * The delete marker a failed HEAD stands for: a named marker version (405), or the latest version of a
 * deleted key (404). Null when the key has no such marker or its versions may not be listed.
 */
async function deleteMarkerFor(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
  error: unknown,
): Promise<ObjectItem | null> {
  if (!(error instanceof S3Error)) return null;
  const named = versionId !== undefined && (error.code === "MethodNotAllowed" || error.status === 405);
  const latest = versionId === undefined && error.status === 404;
  if (!named && !latest) return null;
  const versions = await versionsOf(client, bucket, key).catch(() => []);
  return versions.find((v) => v.is_delete_marker && (named ? v.version_id === versionId : v.is_latest)) ??
    null;
}

/** GET /buckets/{b}/objects/detail: one object (or one version) as its page shows it. */
export async function objectDetail(
  client: S3Client,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<ObjectDetail> {
  const [versioning, locking] = await Promise.all([
    folderVersioning(client, bucket),
    bucketLocking(client, bucket),
  ]);
  const facts = { ...versioning, locking };
  let info: ObjectInfo;
  try {
    info = await headObject(client, bucket, key, { versionId });
  } catch (error) {
    const marker = await deleteMarkerFor(client, bucket, key, versionId, error);
    if (marker) return { ...marker, ...facts };
    throw error;
  }
  const version = info.versionId ?? versionId;
  // MinIO and AWS count an object's tags in HEAD; a server that does not (s3rver) is asked for them anyway,
  // and one that cannot keep tags at all has none.
  const counted = info.headers.has("x-amz-tagging-count") || /minio/i.test(info.headers.get("server") ?? "");
  const [tags, lock] = await Promise.all([
    info.tagCount > 0 || !counted
      ? unlessDenied(
        getObjectTagging(client, bucket, key, version).catch((error) => {
          if (isNotImplemented(error)) return {};
          throw error;
        }),
      )
      : {},
    lockState(client, { bucket, key, versionId: version }, info, locking),
  ]);
  const unreadable: UnreadablePart[] = [...(tags === null ? ["tags" as const] : []), ...lock.unreadable];
  return {
    name: key,
    size: info.size,
    last_modified: new Date(info.lastModified).toISOString(),
    content_type: info.contentType,
    etag: info.etag,
    version_id: info.versionId ?? null,
    is_delete_marker: false,
    legal_hold_status: lock.legal_hold_status,
    retention_mode: lock.retention_mode,
    retention_until_date: lock.retention_until_date,
    tags: tags ?? undefined,
    user_metadata: info.userMetadata,
    ...facts,
    ...(unreadable.length ? { unreadable } : {}),
  };
}
