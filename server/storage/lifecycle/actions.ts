/**
 * Carrying out one lifecycle action on the store. Each re-checks, under the key's lock, that the key still
 * looks as it did when the action was chosen (a client may have written or deleted in between); when it
 * does not, nothing happens and the next scan decides again.
 */
import { removeDurable } from "../fs/durable.ts";
import { type DeleteOutcome, deleteVersion } from "../fs/objects.ts";
import type { Store } from "../fs/store.ts";
import type { TierBackends } from "../tiers/remote.ts";
import type { BucketState, VersionRecord } from "../core/records.ts";
import { readVersion } from "../fs/read.ts";

/**
 * A version still waiting to be replicated is not removed for good (MinIO waits too): the replicator would
 * find nothing to send. The next scan decides again.
 */
const awaitingReplication = (version: VersionRecord) =>
  Object.values(version.replication ?? {}).some((status) => status === "PENDING");

/** Expires the latest version (a delete marker under versioning); null when the key changed meanwhile. */
export async function expireCurrent(
  store: Store,
  state: BucketState,
  key: string,
  version: VersionRecord,
  now: Date,
): Promise<DeleteOutcome | null> {
  let unchanged = false;
  const permanent = state.meta.versioning !== "Enabled";
  const outcome = await deleteVersion(store, state, key, {
    now,
    onlyIf: (
      record,
    ) => (unchanged = record.versions[0] === version && !(permanent && awaitingReplication(version))),
  });
  return unchanged ? outcome : null;
}

/** Removes one version for good (noncurrent expiry, a lone expired delete marker). */
export async function expireVersion(
  store: Store,
  state: BucketState,
  key: string,
  version: VersionRecord,
  reason: "noncurrent" | "delete-marker",
  now: Date,
): Promise<boolean> {
  let unchanged = false;
  await deleteVersion(store, state, key, {
    versionId: version.versionId,
    now,
    onlyIf: (
      record,
    ) => (unchanged = !awaitingReplication(version) &&
      (reason === "noncurrent"
        ? record.versions.indexOf(version) > 0
        : record.versions.length === 1 && record.versions[0] === version)),
  });
  return unchanged;
}

/**
 * Moves a version's bytes to a tier: uploads them (original bytes, decompressed), then, under the key's lock,
 * records where they are and removes the local copy. A version that changed meanwhile keeps its local data
 * and the upload is removed again.
 */
export async function transitionVersion(
  store: Store,
  backends: TierBackends,
  state: BucketState,
  key: string,
  version: VersionRecord,
  tier: string,
  signal?: AbortSignal,
): Promise<boolean> {
  // Encrypted versions stay on local disk: their bytes would reach the tier only decrypted or with keys it
  // cannot open (docs/notes.md); the scanner counts them as not transitioned.
  if (version.sse) return false;
  const ref = await backends.upload(
    tier,
    state.name,
    await readVersion(store, state.name, key, version),
    version.size,
    signal,
  );
  let done = false;
  try {
    if (ref.etag !== undefined && /^[0-9a-f]{32}$/.test(version.etag) && ref.etag !== version.etag) {
      throw new Error(`the tier's copy of ${state.name}/${key} has ETag ${ref.etag}, not ${version.etag}`);
    }
    done = await store.locks.run(`${state.name}/${key}`, async () => {
      const record = state.objects.get(key);
      if (!record || !record.versions.includes(version) || store.buckets.get(state.name) !== state) {
        return false;
      }
      const {
        dataFile,
        inline: _inline,
        compression: _compression,
        storedSize: _storedSize,
        storedPartSizes: _storedPartSizes,
        ...kept
      } = version;
      const moved: VersionRecord = {
        ...kept,
        storageClass: tier,
        transition: { tier: ref.tier, object: ref.object, remoteVersionId: ref.remoteVersionId },
      };
      await store.saveRecord(state, {
        key,
        versions: record.versions.map((v) => (v === version ? moved : v)),
      });
      if (dataFile) await removeDurable(store.dataPath(state.name, key, dataFile));
      return true;
    });
  } finally {
    if (!done) await backends.discard(ref);
  }
  return done;
}
