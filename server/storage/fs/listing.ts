/**
 * Listing over the in-memory key index: ListObjects v1/v2 (prefix, delimiter, markers, continuation) and
 * ListObjectVersions (key and version-id markers), returning at most `maxKeys` entries + common prefixes.
 */
import { compareKeys, lowerBound } from "./store.ts";
import type { BucketState, VersionRecord } from "../core/records.ts";

export interface ListInput {
  prefix: string;
  delimiter: string;
  /** Exclusive: list keys after this one (StartAfter, Marker or a decoded continuation token). */
  after: string;
  maxKeys: number;
}

export interface ListedObject {
  key: string;
  version: VersionRecord;
}

export interface ListOutput {
  objects: ListedObject[];
  prefixes: string[];
  isTruncated: boolean;
  /** The last key or prefix returned, to continue after. */
  last?: string;
}

/** Latest non-deleted version of each key, grouped by delimiter. */
export function listObjects(state: BucketState, input: ListInput): ListOutput {
  const out: ListOutput = { objects: [], prefixes: [], isTruncated: false };
  const keys = state.keys;
  let i = lowerBound(keys, input.after ? input.after : input.prefix);
  if (input.after && i < keys.length && keys[i] === input.after) i++;
  if (input.maxKeys === 0) return out;
  for (; i < keys.length; i++) {
    const key = keys[i];
    if (!key.startsWith(input.prefix)) {
      if (compareKeys(key, input.prefix) > 0) break;
      continue;
    }
    const latest = state.objects.get(key)?.versions[0];
    if (!latest || latest.deleteMarker) continue;
    if (input.delimiter) {
      const cut = key.indexOf(input.delimiter, input.prefix.length);
      if (cut !== -1) {
        const common = key.slice(0, cut + input.delimiter.length);
        if (input.after && compareKeys(common, input.after) <= 0) continue;
        if (out.objects.length + out.prefixes.length >= input.maxKeys) {
          out.isTruncated = true;
          break;
        }
        out.prefixes.push(common);
        out.last = common;
        // Skip every key under this common prefix.
        i = lowerBound(keys, common + "\u{10FFFF}") - 1;
        continue;
      }
    }
    if (out.objects.length + out.prefixes.length >= input.maxKeys) {
      out.isTruncated = true;
      break;
    }
    out.objects.push({ key, version: latest });
    out.last = key;
  }
  return out;
}

export interface VersionListInput {
  prefix: string;
  delimiter: string;
  keyMarker: string;
  versionIdMarker: string;
  maxKeys: number;
}

export interface VersionListOutput {
  versions: (ListedObject & { isLatest: boolean })[];
  prefixes: string[];
  isTruncated: boolean;
  nextKeyMarker?: string;
  nextVersionIdMarker?: string;
}

/** Every version and delete marker, newest first per key. */
export function listVersions(state: BucketState, input: VersionListInput): VersionListOutput {
  const out: VersionListOutput = { versions: [], prefixes: [], isTruncated: false };
  const keys = state.keys;
  let i = lowerBound(keys, input.keyMarker || input.prefix);
  const full = () => out.versions.length + out.prefixes.length >= input.maxKeys;
  for (; i < keys.length; i++) {
    const key = keys[i];
    if (!key.startsWith(input.prefix)) {
      if (compareKeys(key, input.prefix) > 0) break;
      continue;
    }
    if (input.delimiter) {
      const cut = key.indexOf(input.delimiter, input.prefix.length);
      if (cut !== -1) {
        const common = key.slice(0, cut + input.delimiter.length);
        if (input.keyMarker && compareKeys(common, input.keyMarker) <= 0) continue;
        if (full()) {
          out.isTruncated = true;
          break;
        }
        out.prefixes.push(common);
        out.nextKeyMarker = common;
        i = lowerBound(keys, common + "\u{10FFFF}") - 1;
        continue;
      }
    }
    const versions = state.objects.get(key)?.versions ?? [];
    let start = 0;
    if (input.keyMarker && key === input.keyMarker) {
      if (!input.versionIdMarker) continue; // key-marker alone means "after this key"
      start = versions.findIndex((v) => v.versionId === input.versionIdMarker) + 1;
      if (start === 0) continue;
    }
    for (let v = start; v < versions.length; v++) {
      if (full()) {
        out.isTruncated = true;
        return out;
      }
      out.versions.push({ key, version: versions[v], isLatest: v === 0 });
      out.nextKeyMarker = key;
      out.nextVersionIdMarker = versions[v].versionId;
    }
  }
  return out;
}
