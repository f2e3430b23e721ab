/** The disk store seen from the identity/admin side (contracts.ts StoreFacts). */
import { statfs } from "node:fs/promises";
import type { BucketUsage, StoreFacts, StoreUsage } from "./core/contracts.ts";
import type { Store } from "./fs/store.ts";

export function storeFacts(store: Store, deploymentId: string): StoreFacts {
  return {
    dataDir: store.root,
    deploymentId,
    bucketExists: (bucket) => Promise.resolve(store.buckets.has(bucket)),
    listBucketNames: () => Promise.resolve([...store.buckets.keys()].sort()),
    usage: () => {
      const usage: StoreUsage = {
        buckets: store.buckets.size,
        objects: 0,
        versions: 0,
        deleteMarkers: 0,
        size: 0,
        perBucket: {},
      };
      for (const state of store.buckets.values()) {
        const b: BucketUsage = {
          size: 0,
          objects: 0,
          versions: 0,
          deleteMarkers: 0,
          created: state.meta.created,
        };
        for (const record of state.objects.values()) {
          if (!record.versions[0]?.deleteMarker) b.objects++;
          for (const v of record.versions) {
            if (v.deleteMarker) b.deleteMarkers++;
            else {
              b.versions++;
              b.size += v.size;
            }
          }
        }
        usage.perBucket[state.name] = b;
        usage.objects += b.objects;
        usage.versions += b.versions;
        usage.deleteMarkers += b.deleteMarkers;
        usage.size += b.size;
      }
      return Promise.resolve(usage);
    },
    getBucketDocument: (bucket, name) => store.getDocument(bucket, name),
    putBucketDocument: (bucket, name, value) => store.putDocument(bucket, name, value),
    bucketDetails: async (bucket) => {
      const state = store.bucket(bucket);
      const quota = await store.getDocument(bucket, "quota.json");
      return {
        versioning: state.meta.versioning === "Enabled",
        versioningSuspended: state.meta.versioning === "Suspended",
        locking: state.meta.objectLock,
        replication: !!(await store.getDocument(bucket, "replication.xml")),
        quota: quota ? JSON.parse(quota) : null,
      };
    },
    diskSpace: async () => {
      const s = await statfs(store.root);
      const total = s.blocks * s.bsize;
      const free = s.bavail * s.bsize;
      return { total, free, used: total - s.bfree * s.bsize };
    },
  };
}
