/** Commits changes to a version's per-target replication status in the bucket's records log. */
import type { Store } from "../fs/store.ts";
import type { VersionRecord } from "../core/records.ts";

type Statuses = NonNullable<VersionRecord["replication"]>;

/**
 * Applies `change` to one version's statuses under the key's lock (like every write of its record); nothing
 * is written when the version is gone or `change` returns null (no change).
 */
export async function changeStatus(
  store: Store,
  bucket: string,
  key: string,
  versionId: string,
  change: (statuses: Statuses, version: VersionRecord) => Statuses | null,
): Promise<void> {
  const state = store.buckets.get(bucket);
  if (!state) return;
  await store.locks.run(`${state.name}/${key}`, async () => {
    const record = state.objects.get(key);
    const version = record?.versions.find((v) => v.versionId === versionId);
    if (!record || !version) return;
    const next = change({ ...(version.replication ?? {}) }, version);
    if (!next) return;
    const updated: VersionRecord = { ...version, replication: next };
    await store.saveRecord(state, {
      key,
      versions: record.versions.map((v) => (v === version ? updated : v)),
    });
  });
}
