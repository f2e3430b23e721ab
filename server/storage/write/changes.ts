/**
 * Writes that change what a key holds without new bytes, through the write path's last steps (path.ts):
 * a version's tags, retention or legal hold (the version is replicated again, step 10, and announced,
 * step 11), and deletes (a delete marker or a version removed, with object lock enforced).
 */
import { StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";
import { deleteEventName, notifyObject } from "../events/records.ts";
import { type DeleteOutcome, deleteVersion, updateVersion } from "../fs/objects.ts";
import {
  replicaDeleteOptions,
  replicateAfterDelete,
  replicateAfterWrite,
  replicationOnDelete,
  replicationOnMetadata,
} from "../replication/hooks.ts";
import type { WriteContext } from "./path.ts";
import { bypassGovernance } from "./settings.ts";

type Retention = VersionRecord["retention"];

/** One version's metadata changed by `apply`: `tags` are those it will have ("unchanged": its own). */
async function changeVersion(
  ctx: WriteContext,
  versionId: string | undefined,
  change: {
    event: string;
    tags: Record<string, string> | undefined | "unchanged";
    apply(v: VersionRecord): void;
  },
): Promise<VersionRecord> {
  const replication = await replicationOnMetadata(ctx, ctx.key, change.tags);
  const version = await updateVersion(ctx.store, ctx.store.bucket(ctx.bucket), ctx.key, versionId, (v) => {
    change.apply(v);
    v.replication = replication(v);
  });
  await replicateAfterWrite(ctx, ctx.key, version);
  notifyObject(ctx, change.event, ctx.key, version);
  return version;
}

/** PutObjectTagging (an empty set) and DeleteObjectTagging (undefined). */
export function setTags(
  ctx: WriteContext,
  versionId: string | undefined,
  tags: Record<string, string> | undefined,
): Promise<VersionRecord> {
  return changeVersion(ctx, versionId, {
    event: tags ? "s3:ObjectCreated:PutTagging" : "s3:ObjectCreated:DeleteTagging",
    tags,
    apply: (v) => {
      v.tags = tags && Object.keys(tags).length ? tags : undefined;
    },
  });
}

/**
 * PutObjectRetention. As MinIO: while a retention is active only the same mode with an equal or later date
 * may replace it; any other change (another mode, an earlier date, none) is governance's bypass alone to make.
 */
export function setRetention(
  ctx: WriteContext,
  versionId: string | undefined,
  retention: Retention,
): Promise<VersionRecord> {
  const bypass = bypassGovernance(ctx, ctx.key);
  return changeVersion(ctx, versionId, {
    event: "s3:ObjectCreated:PutRetention",
    tags: "unchanged",
    apply: (v) => {
      const current = v.retention;
      if (current && Date.parse(current.until) > ctx.now.getTime()) {
        const changed = retention === undefined || retention.mode !== current.mode ||
          Date.parse(retention.until) < Date.parse(current.until);
        if (changed && (current.mode === "COMPLIANCE" || !bypass)) {
          throw new StoreError("AccessDenied", "Object is WORM protected and cannot be overwritten", 403);
        }
      }
      v.retention = retention;
    },
  });
}

/** PutObjectLegalHold. */
export function setLegalHold(
  ctx: WriteContext,
  versionId: string | undefined,
  on: boolean,
): Promise<VersionRecord> {
  return changeVersion(ctx, versionId, {
    event: "s3:ObjectCreated:PutLegalHold",
    tags: "unchanged",
    apply: (v) => {
      v.legalHold = on;
    },
  });
}

/**
 * DeleteObject and each object of DeleteObjects: a delete marker under versioning, a version removed when
 * one is named, object lock enforced (governance bypassed only when asked for and allowed). `asReplica`:
 * the request may come from a replicating source (DeleteObject's), whose delete marker keeps its id.
 */
export async function deleteObject(
  ctx: WriteContext,
  key: string,
  versionId: string | undefined,
  asReplica: boolean,
): Promise<DeleteOutcome> {
  const state = ctx.store.bucket(ctx.bucket);
  const replication = await replicationOnDelete(ctx, key, versionId);
  const outcome = await deleteVersion(ctx.store, state, key, {
    versionId,
    bypassGovernance: bypassGovernance(ctx, key),
    now: ctx.now,
    replication,
    ...(asReplica ? replicaDeleteOptions(ctx) : {}),
  });
  await replicateAfterDelete(ctx, key, versionId, outcome, replication);
  notifyObject(ctx, deleteEventName(versionId, outcome), key, undefined, outcome.versionId);
  return outcome;
}
