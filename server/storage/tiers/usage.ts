/** How much of the store lives on one tier (the tier admin's in-use check and tier statistics). */
import type { Store } from "../fs/store.ts";

export interface TierUsage {
  versions: number;
  objects: number;
  bytes: number;
}

export function tierUsage(store: Store, tier: string): TierUsage {
  const usage: TierUsage = { versions: 0, objects: 0, bytes: 0 };
  for (const state of store.buckets.values()) {
    for (const record of state.objects.values()) {
      let any = false;
      for (const v of record.versions) {
        if (v.transition?.tier !== tier) continue;
        usage.versions++;
        usage.bytes += v.size;
        any = true;
      }
      if (any) usage.objects++;
    }
  }
  return usage;
}
