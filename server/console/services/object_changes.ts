/**
 * Changing objects (spec 3 §7.3): delete one object, a version, a whole folder or a selection; restore an
 * older version; set or remove retention; replace tags; set legal hold. A selection holding a locked or held version is refused
 * with the storage's own message before anything is deleted.
 */
import type { DeleteObjectsInput, PutLegalHoldInput, PutRetentionInput } from "../../lib/contract/objects.ts";
import { ApiError } from "../http/errors.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import {
  getObjectLegalHold,
  getObjectRetention,
  putObjectLegalHold,
  putObjectRetention,
  putObjectTagging,
} from "../../lib/s3/ops/object_lock.ts";
import { copyObject, deleteObject, deleteObjects, listObjectsV2 } from "../../lib/s3/ops/objects.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

/** "null", as the UI sends for unversioned objects (api-index §12.13), means the null version; "" means none. */
export const versionParam = (
  value: string | undefined,
) => (value === undefined || value === "" ? undefined : value);

/** Whether object lock keeps this version from being deleted now (retention unexpired, or a legal hold). */
async function isLocked(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string,
  now: number,
): Promise<boolean> {
  const [hold, retention] = await Promise.all([
    getObjectLegalHold(client, bucket, key, versionId).catch(() => false),
    getObjectRetention(client, bucket, key, versionId).catch(() => null),
  ]);
  return hold || (retention !== null && Date.parse(retention.until) > now);
}

/**
 * Refuses a deletion that names a locked version: that one version's delete is sent first, so the storage
 * itself refuses it and gives its message, and nothing else is touched.
 */
async function refuseLockedVersions(
  client: S3Client,
  bucket: string,
  targets: { key: string; versionId?: string }[],
): Promise<void> {
  const now = Date.now();
  for (const target of targets) {
    if (!target.versionId || target.versionId === "null") continue;
    if (await isLocked(client, bucket, target.key, target.versionId, now)) {
      await deleteObject(client, bucket, target.key, { versionId: target.versionId });
    }
  }
}

/** Deletes every current object under `prefix`, a storage page (up to 1,000 keys) at a time. */
async function deleteUnder(client: S3Client, bucket: string, prefix: string): Promise<void> {
  let token: string | undefined;
  do {
    const page = await listObjectsV2(client, bucket, { prefix, continuationToken: token });
    if (page.objects.length) {
      const result = await deleteObjects(client, bucket, page.objects.map((o) => ({ key: o.key })), {
        quiet: true,
      });
      if (result.errors.length) {
        const first = result.errors[0];
        throw new ApiError(
          first.code === "AccessDenied" ? 403 : 400,
          `${result.errors.length} object(s) could not be deleted`,
          { detail: `${first.key}: ${first.message}` },
        );
      }
    }
    token = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (token);
}

/** DELETE /buckets/{bucket}/objects?path=&version_id=&recursive= */
export async function deleteObjectAt(
  client: S3Client,
  bucket: string,
  path: string,
  options: { versionId?: string; recursive?: boolean },
): Promise<void> {
  if (options.recursive) {
    if (options.versionId) {
      throw ApiError.badRequest("invalid request", "a folder is deleted without a version id");
    }
    await deleteUnder(client, bucket, path);
    return;
  }
  await refuseLockedVersions(client, bucket, [{ key: path, versionId: options.versionId }]);
  await deleteObject(client, bucket, path, { versionId: options.versionId });
}

/** POST /buckets/{bucket}/delete-objects: objects, versions and folders in one go. */
export async function deleteSelection(
  client: S3Client,
  bucket: string,
  items: DeleteObjectsInput,
): Promise<void> {
  const single = items.filter((i) => !i.recursive).map((i) => ({
    key: i.path,
    versionId: versionParam(i.versionID),
  }));
  await refuseLockedVersions(client, bucket, single);
  for (let start = 0; start < single.length; start += 1000) {
    const result = await deleteObjects(client, bucket, single.slice(start, start + 1000), { quiet: true });
    if (result.errors.length) {
      const first = result.errors[0];
      throw new ApiError(
        first.code === "AccessDenied" ? 403 : 400,
        `${result.errors.length} object(s) could not be deleted`,
        { detail: `${first.key}: ${first.message}` },
      );
    }
  }
  for (const folder of items.filter((i) => i.recursive)) await deleteUnder(client, bucket, folder.path);
}

/** PUT …/objects/retention: the date arrives as the end of the chosen day (spec 3 §9). */
export async function setRetention(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
  input: PutRetentionInput,
): Promise<void> {
  const until = Date.parse(input.expires);
  if (Number.isNaN(until)) {
    throw ApiError.badRequest(
      t("objects.api.invalidRetentionDate"),
      t("objects.api.notADate", { value: input.expires }),
    );
  }
  if (until <= Date.now()) {
    throw ApiError.badRequest(t("objects.api.invalidRetentionDate"), t("objects.api.retentionInPast"));
  }
  await putObjectRetention(client, bucket, key, {
    mode: input.mode === "governance" ? "GOVERNANCE" : "COMPLIANCE",
    until: new Date(until).toISOString(),
  }, {
    versionId,
    bypassGovernance: input.governance_bypass,
  });
}

/** DELETE …/objects/retention: removing governance retention needs the bypass (spec 3 §4). */
export async function removeRetention(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
): Promise<void> {
  await putObjectRetention(client, bucket, key, null, { versionId, bypassGovernance: true });
}

/** PUT …/objects/tags: checked as S3 checks them (at most 10, key 1-128 characters, value ≤ 256). */
export async function setTags(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
  tags: Record<string, string>,
): Promise<void> {
  const entries = Object.entries(tags);
  if (entries.length > 10) {
    throw ApiError.badRequest(t("objects.api.tooManyTags"), t("objects.api.tagsLimit", { count: 10 }));
  }
  for (const [name, value] of entries) {
    if (name.trim() === "" || name.length > 128) {
      throw ApiError.badRequest(t("objects.api.invalidTag"), t("objects.api.tagKeyLength"));
    }
    if (value.length > 256) {
      throw ApiError.badRequest(t("objects.api.invalidTag"), t("objects.api.tagValueLength", { name }));
    }
  }
  await putObjectTagging(client, bucket, key, tags, versionId);
}

export async function setLegalHold(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
  input: PutLegalHoldInput,
): Promise<void> {
  await putObjectLegalHold(client, bucket, key, input.status === "enabled", versionId);
}

/**
 * PUT …/objects/restore (D): an older version becomes the current one again, copied over its key as MinIO's
 * console does it, so a deleted object comes back and the versions in between stay in its history.
 */
export async function restoreVersion(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
): Promise<void> {
  if (!versionId) throw ApiError.badRequest("invalid request", "version_id must name the version to restore");
  await copyObject(client, { bucket, key, versionId }, { bucket, key });
}
