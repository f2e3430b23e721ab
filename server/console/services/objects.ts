/**
 * Objects (api-index §6, spec 3 §7.3): listing a folder one storage page at a time (or every entry, streamed
 * as JSON for scripts), versions, and the rewind view; one object's page is in object_detail.ts. Folders are
 * S3 common prefixes and come back as items whose name ends in "/".
 */
import type { ObjectItem, ObjectList, RewindItem, RewindList } from "../../lib/contract/objects.ts";
import { ApiError } from "../http/errors.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { getObjectTagging } from "../../lib/s3/ops/object_lock.ts";
import {
  headObject,
  listObjectsV2,
  listObjectVersions,
  type ObjectEntry,
  type ObjectInfo,
  type ObjectVersionEntry,
} from "../../lib/s3/ops/objects.ts";

/** S3's retention mode as the contract spells it. */
export const lowerMode = (mode?: string) =>
  mode ? mode.toLowerCase() as "governance" | "compliance" : undefined;

/** Entries per page when the caller asks for pages; S3's own maximum. */
export const MAX_PAGE = 1000;

export interface ListOptions {
  prefix: string;
  /** Page size (1..1000). */
  limit: number;
  /** The `next_token` of the previous page. */
  token?: string;
  withVersions?: boolean;
  /** Each key's latest version, delete markers included ("Show deleted objects"). */
  withDeleted?: boolean;
  withMetadata?: boolean;
  /** Without a delimiter the listing is flat (every key under the prefix). */
  recursive?: boolean;
}

function itemOf(entry: ObjectEntry): ObjectItem {
  const item: ObjectItem = {
    name: entry.key,
    size: entry.size,
    last_modified: entry.lastModified,
    etag: entry.etag,
    version_id: null,
  };
  if (entry.contentType) item.content_type = entry.contentType;
  if (entry.userMetadata) item.user_metadata = entry.userMetadata;
  if (entry.userTags) item.tags = Object.fromEntries(new URLSearchParams(entry.userTags));
  return item;
}

function versionItemOf(entry: ObjectVersionEntry): ObjectItem {
  return {
    ...itemOf(entry),
    version_id: entry.versionId,
    is_latest: entry.isLatest,
    is_delete_marker: entry.isDeleteMarker,
  };
}

const folderItem = (prefix: string): ObjectItem => ({ name: prefix, size: 0, last_modified: "" });

/** Version listings resume at a key and version id; both travel in one opaque token. */
function encodeMarker(marker: { key: string; version?: string }): string {
  return new TextEncoder().encode(JSON.stringify(marker)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

function decodeMarker(token: string): { key: string; version?: string } {
  try {
    const value = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(token, { alphabet: "base64url" })),
    );
    if (typeof value.key === "string") return value;
  } catch { /* below */ }
  throw ApiError.badRequest(
    "invalid page token",
    "next_token must come from the previous page of the same listing",
  );
}

/** Retention and legal hold as the contract spells them, from a HEAD's headers. */
function lockStateOf(info: ObjectInfo): Pick<ObjectItem, LockField> {
  return {
    legal_hold_status: info.legalHold === undefined ? undefined : info.legalHold ? "ON" : "OFF",
    retention_mode: lowerMode(info.retentionMode),
    retention_until_date: info.retainUntil,
  };
}

type LockField = "legal_hold_status" | "retention_mode" | "retention_until_date";

/** HEADs in flight at once when a listing names one object's many versions. */
const LOCK_LOOKUPS = 8;

/**
 * A listing whose prefix names one object (spec 3's Object model, as the original console's ListObjects
 * does) carries that object's legal hold, retention and tags, for every version listed: scripts read them
 * there. What the caller may not read is left out, as the original did, rather than failing the listing.
 */
async function addLockStateAndTags(
  client: S3Client,
  bucket: string,
  prefix: string,
  items: ObjectItem[],
): Promise<void> {
  if (!prefix || prefix.endsWith("/")) return;
  const named = items.filter((item) => item.name === prefix && !item.is_delete_marker);
  for (let at = 0; at < named.length; at += LOCK_LOOKUPS) {
    await Promise.all(
      named.slice(at, at + LOCK_LOOKUPS).map(async (item) => {
        const versionId = item.version_id ?? undefined;
        try {
          const info = await headObject(client, bucket, item.name, { versionId });
          Object.assign(item, lockStateOf(info));
          item.tags = info.tagCount > 0 ? await getObjectTagging(client, bucket, item.name, versionId) : {};
        } catch (error) {
          if (!(error instanceof S3Error)) throw error;
        }
      }),
    );
  }
}

/** One page of a folder: its objects (and versions or metadata when asked) and its sub-folders. */
export async function listPage(client: S3Client, bucket: string, options: ListOptions): Promise<ObjectList> {
  const delimiter = options.recursive ? undefined : "/";
  if (options.withDeleted && !options.withVersions) return await latestPage(client, bucket, options);
  if (options.withVersions) {
    const marker = options.token ? decodeMarker(options.token) : undefined;
    const page = await listObjectVersions(client, bucket, {
      prefix: options.prefix,
      delimiter,
      keyMarker: marker?.key,
      versionIdMarker: marker?.version,
      maxKeys: options.limit,
      metadata: options.withMetadata,
    });
    const objects = [...page.prefixes.map(folderItem), ...page.versions.map(versionItemOf)];
    await addLockStateAndTags(client, bucket, options.prefix, objects);
    const next = page.isTruncated && page.nextKeyMarker
      ? encodeMarker({ key: page.nextKeyMarker, version: page.nextVersionIdMarker })
      : undefined;
    return { objects, total: objects.length, next_token: next };
  }
  const page = await listObjectsV2(client, bucket, {
    prefix: options.prefix,
    delimiter,
    continuationToken: options.token,
    maxKeys: options.limit,
    metadata: options.withMetadata,
  });
  const objects = [...page.prefixes.map(folderItem), ...page.objects.map(itemOf)];
  await addLockStateAndTags(client, bucket, options.prefix, objects);
  return {
    objects,
    total: objects.length,
    next_token: page.isTruncated ? page.nextContinuationToken : undefined,
  };
}

/**
 * One page of each key's latest version, deleted keys (a delete marker on top) included. A storage page
 * holding only older versions adds nothing, so the next one is read at once: an empty answer with more to
 * come would look like the end of the folder.
 */
async function latestPage(client: S3Client, bucket: string, options: ListOptions): Promise<ObjectList> {
  let marker = options.token ? decodeMarker(options.token) : undefined;
  const objects: ObjectItem[] = [];
  while (true) {
    const page = await listObjectVersions(client, bucket, {
      prefix: options.prefix,
      delimiter: options.recursive ? undefined : "/",
      keyMarker: marker?.key,
      versionIdMarker: marker?.version,
      maxKeys: options.limit,
      metadata: options.withMetadata,
    });
    objects.push(
      ...page.prefixes.map(folderItem),
      ...page.versions.filter((v) => v.isLatest).map(versionItemOf),
    );
    marker = page.isTruncated && page.nextKeyMarker
      ? { key: page.nextKeyMarker, version: page.nextVersionIdMarker }
      : undefined;
    if (!marker || objects.length > 0) {
      return { objects, total: objects.length, next_token: marker ? encodeMarker(marker) : undefined };
    }
  }
}

/**
 * Every entry under the prefix as the contract's JSON (`{"objects":[...],"total":N}`), written page by page
 * as the storage lists them: a script asking for a prefix of a million keys gets them all, and the console
 * holds one page at a time.
 */
export async function streamAll(
  client: S3Client,
  bucket: string,
  options: Omit<ListOptions, "limit" | "token">,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let token: string | undefined;
  let total = 0;
  let finished = false;
  // The first page is read before answering, so a missing bucket or a refusal is a proper error status.
  let first: ObjectList | null = await listPage(client, bucket, { ...options, limit: MAX_PAGE });
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"objects":['));
    },
    async pull(controller) {
      if (finished) return controller.close();
      if (signal?.aborted) return controller.error(signal.reason);
      const page = first ?? await listPage(client, bucket, { ...options, limit: MAX_PAGE, token });
      first = null;
      const text = page.objects.map((o) => JSON.stringify(o)).join(",");
      if (text) controller.enqueue(encoder.encode((total > 0 ? "," : "") + text));
      total += page.objects.length;
      token = page.next_token;
      if (!token) {
        finished = true;
        controller.enqueue(encoder.encode(`],"total":${total}}`));
      }
    },
  }, { highWaterMark: 0 });
}

/**
 * The folder as it was at `date` (spec 3 §4 rewind): each key's newest version written at or before that
 * time, delete markers included as deleted; keys created later are left out. A key's versions may span
 * storage pages, so they are gathered before a key is decided.
 */
export async function rewindPage(
  client: S3Client,
  bucket: string,
  date: Date,
  options: { prefix: string; limit: number; token?: string },
): Promise<RewindList> {
  const at = date.getTime();
  const out: RewindItem[] = [];
  let marker = options.token ? decodeMarker(options.token) : undefined;
  let pending: ObjectVersionEntry[] = [];
  const decide = () => {
    const chosen = pending.find((v) => Date.parse(v.lastModified) <= at);
    pending = [];
    if (!chosen) return;
    out.push({
      name: chosen.key,
      last_modified: chosen.lastModified,
      size: chosen.isDeleteMarker ? 0 : chosen.size,
      version_id: chosen.versionId === "null" ? null : chosen.versionId,
      delete_flag: chosen.isDeleteMarker,
      action: chosen.isDeleteMarker ? "DELETE" : "PUT",
    });
  };
  while (true) {
    const page = await listObjectVersions(client, bucket, {
      prefix: options.prefix,
      delimiter: "/",
      keyMarker: marker?.key,
      versionIdMarker: marker?.version,
      maxKeys: MAX_PAGE,
    });
    // Folders and versions merged in key order, so what is emitted is always a prefix of the listing.
    const prefixes = [...page.prefixes];
    for (const version of page.versions) {
      while (prefixes.length && prefixes[0] < version.key) {
        if (pending.length) decide();
        out.push(rewindFolder(prefixes.shift()!));
      }
      if (pending.length && pending[0].key !== version.key) decide();
      pending.push(version);
    }
    if (prefixes.length && pending.length) decide();
    out.push(...prefixes.map(rewindFolder));
    if (!page.isTruncated || !page.nextKeyMarker) {
      if (pending.length) decide();
      return { objects: out, total: out.length };
    }
    marker = { key: page.nextKeyMarker, version: page.nextVersionIdMarker };
    // A key still pending may continue on the next storage page; the next call starts after the last one emitted.
    if (out.length >= options.limit) {
      return { objects: out, total: out.length, next_token: encodeMarker({ key: out[out.length - 1].name }) };
    }
  }
}

const rewindFolder = (name: string): RewindItem => ({
  name,
  last_modified: "",
  size: 0,
  version_id: null,
  delete_flag: false,
  action: "PREFIX",
});

/** Every version of one key, newest first (the Versions tab). */
export async function versionsOf(client: S3Client, bucket: string, key: string): Promise<ObjectItem[]> {
  const versions: ObjectItem[] = [];
  let marker: { key?: string; version?: string } = {};
  while (true) {
    const page = await listObjectVersions(client, bucket, {
      prefix: key,
      keyMarker: marker.key,
      versionIdMarker: marker.version,
      maxKeys: MAX_PAGE,
    });
    for (const v of page.versions) if (v.key === key) versions.push(versionItemOf(v));
    // Versions come in key order: once past the key (or out of pages), there are no more.
    if (!page.isTruncated || page.versions.some((v) => v.key > key)) return versions;
    marker = { key: page.nextKeyMarker, version: page.nextVersionIdMarker };
  }
}
