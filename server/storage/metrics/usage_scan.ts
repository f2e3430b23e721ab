/**
 * Usage figures for the metrics endpoint, computed in one pass over the store's in-memory index: totals,
 * per-bucket totals, and the object-size and version-count distributions MinIO's scanner reports. The pass
 * touches every object record, so its result is kept until the store changes (MinIO likewise caches each
 * metric group, for 10 s to 1 min).
 */
import type { Store } from "../fs/store.ts";

/** MinIO's object-size ranges (current spelling, part 2 §4.2) with their inclusive upper bounds. */
export const SIZE_RANGES: { name: string; upTo: number }[] = [
  { name: "LESS_THAN_1024_B", upTo: 1023 },
  { name: "BETWEEN_1024B_AND_1_MB", upTo: 1024 * 1024 - 1 },
  { name: "BETWEEN_1_MB_AND_10_MB", upTo: 10 * 1024 * 1024 - 1 },
  { name: "BETWEEN_10_MB_AND_64_MB", upTo: 64 * 1024 * 1024 - 1 },
  { name: "BETWEEN_64_MB_AND_128_MB", upTo: 128 * 1024 * 1024 - 1 },
  { name: "BETWEEN_128_MB_AND_512_MB", upTo: 512 * 1024 * 1024 - 1 },
  { name: "GREATER_THAN_512_MB", upTo: Infinity },
];

/** Version-count ranges: how many versions (delete markers included) each key has. */
export const VERSION_RANGES: { name: string; upTo: number }[] = [
  { name: "UNVERSIONED", upTo: 0 },
  { name: "SINGLE_VERSION", upTo: 1 },
  { name: "BETWEEN_2_AND_10", upTo: 9 },
  { name: "BETWEEN_10_AND_100", upTo: 99 },
  { name: "BETWEEN_100_AND_1000", upTo: 999 },
  { name: "BETWEEN_1000_AND_10000", upTo: 9999 },
  { name: "GREATER_THAN_10000", upTo: Infinity },
];

export interface UsageFigures {
  size: number;
  objects: number;
  versions: number;
  deleteMarkers: number;
  /** Counts per SIZE_RANGES entry, same order. */
  sizeDistribution: number[];
  /** Counts per VERSION_RANGES entry, same order. */
  versionDistribution: number[];
}

export interface UsageSnapshot {
  /** Epoch milliseconds of the pass. */
  at: number;
  totals: UsageFigures;
  buckets: Map<string, UsageFigures>;
}

const emptyFigures = (): UsageFigures => ({
  size: 0,
  objects: 0,
  versions: 0,
  deleteMarkers: 0,
  sizeDistribution: SIZE_RANGES.map(() => 0),
  versionDistribution: VERSION_RANGES.map(() => 0),
});

const rangeIndex = (ranges: { upTo: number }[], value: number) => ranges.findIndex((r) => value <= r.upTo);

function addInto(total: UsageFigures, part: UsageFigures): void {
  total.size += part.size;
  total.objects += part.objects;
  total.versions += part.versions;
  total.deleteMarkers += part.deleteMarkers;
  part.sizeDistribution.forEach((n, i) => (total.sizeDistribution[i] += n));
  part.versionDistribution.forEach((n, i) => (total.versionDistribution[i] += n));
}

/** One pass over the index. */
export function scanUsage(store: Store, now: number): UsageSnapshot {
  const totals = emptyFigures();
  const buckets = new Map<string, UsageFigures>();
  for (const state of store.buckets.values()) {
    const figures = emptyFigures();
    const versioned = state.meta.versioning !== "";
    for (const record of state.objects.values()) {
      const latest = record.versions[0];
      if (latest && !latest.deleteMarker) {
        figures.objects++;
        figures.sizeDistribution[rangeIndex(SIZE_RANGES, latest.size)]++;
      }
      for (const version of record.versions) {
        if (version.deleteMarker) figures.deleteMarkers++;
        else {
          figures.versions++;
          figures.size += version.size;
        }
      }
      figures.versionDistribution[versioned ? rangeIndex(VERSION_RANGES, record.versions.length) : 0]++;
    }
    buckets.set(state.name, figures);
    addInto(totals, figures);
  }
  return { at: now, totals, buckets };
}

/**
 * Keeps the last pass until the store changes: `markChanged()` (called for every successful write request)
 * makes the next read rescan, so values move right after an upload, while scrapes of an idle store reuse the
 * last pass. `minAgeMs` can space rescans further apart under constant writes.
 */
export function cachedUsage(store: Store, now: () => number, minAgeMs = 0) {
  let last: UsageSnapshot | null = null;
  let changed = true;
  return {
    markChanged: () => void (changed = true),
    read: (): UsageSnapshot => {
      const t = now();
      if (!last || (changed && (t - last.at >= minAgeMs || t < last.at))) {
        changed = false;
        last = scanUsage(store, t);
      }
      return last;
    },
  };
}
