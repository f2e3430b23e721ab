/**
 * Wire types and input schemas of the Objects area (api-index §6, spec 3 §3 and §7.3), plus Deck's own
 * additions for scale: paged listings, resumable uploads, zip downloads, bucket search and share links.
 * Imported by the server and by the islands.
 */
import * as s from "./schema.ts";

/** One listed object, version, or (name ending in "/") folder. Fields follow api-index §6. */
export interface ObjectItem {
  name: string;
  size: number;
  last_modified: string;
  content_type?: string;
  etag?: string;
  /** null when the bucket is unversioned (spec 3 §3). */
  version_id?: string | null;
  is_latest?: boolean;
  is_delete_marker?: boolean;
  legal_hold_status?: "ON" | "OFF";
  retention_mode?: "governance" | "compliance";
  retention_until_date?: string;
  tags?: Record<string, string>;
  user_metadata?: Record<string, string>;
}

/**
 * GET /buckets/{bucket}/objects. With `limit`, one page and `next_token` (absent on the last page); without
 * it, every entry under the prefix, streamed as it is listed.
 */
export interface ObjectList {
  objects: ObjectItem[];
  total: number;
  next_token?: string;
}

/** One entry of the rewind view (api-index §6 GetBucketRewind). */
export interface RewindItem {
  name: string;
  last_modified: string;
  size: number;
  version_id: string | null;
  delete_flag: boolean;
  action: "PUT" | "DELETE" | "PREFIX";
}

export interface RewindList {
  objects: RewindItem[];
  total: number;
  next_token?: string;
}

/** GET /buckets/{bucket}/objects/versioning (D): the folder view's Rewind and deleted objects need versioning. */
export interface FolderVersioning {
  /** Whether the bucket has versioning on; null when the user may not read it. */
  is_versioned: boolean | null;
}

/** Parts of an object's page the user may not read: they show as unknown, not as a failed page. */
export type UnreadablePart = "tags" | "legal_hold" | "retention";

/**
 * What the object page shows: the version asked for (or, when the latest is a delete marker, that marker),
 * its lock state, tags and metadata.
 */
export interface ObjectDetail extends ObjectItem, FolderVersioning {
  /** Whether the bucket has object locking (retention and legal hold need it); null when unreadable. */
  locking: boolean | null;
  /** What the user may not read of this version (absent when everything was read). */
  unreadable?: UnreadablePart[];
}

/** POST /buckets/{bucket}/delete-objects: a JSON array of these. */
export const DeleteObjectsInput = s.array(
  s.object({
    path: s.string({ min: 1 }),
    versionID: s.optional(s.string()),
    recursive: s.optional(s.boolean(), false),
  }),
  { min: 1, max: 10_000 },
);
export type DeleteObjectsInput = s.Infer<typeof DeleteObjectsInput>;

/** PUT /buckets/{bucket}/objects/retention */
export const PutRetentionInput = s.object({
  mode: s.literal("governance", "compliance"),
  expires: s.string({ min: 1 }),
  governance_bypass: s.optional(s.boolean(), false),
});
export type PutRetentionInput = s.Infer<typeof PutRetentionInput>;

/** PUT /buckets/{bucket}/objects/tags: replaces the whole set. */
export const PutTagsInput = s.object({ tags: s.optional(s.record(s.string({ max: 256 })), {}) });
export type PutTagsInput = s.Infer<typeof PutTagsInput>;

/** PUT /buckets/{bucket}/objects/legalhold */
export const PutLegalHoldInput = s.object({ status: s.literal("enabled", "disabled") });
export type PutLegalHoldInput = s.Infer<typeof PutLegalHoldInput>;

/** POST /buckets/{bucket}/uploads: starts a resumable multipart upload. */
export const StartUploadInput = s.object({
  key: s.string({ min: 1 }),
  content_type: s.optional(s.string({ max: 256 })),
  size: s.number({ min: 0, integer: true }),
});
export type StartUploadInput = s.Infer<typeof StartUploadInput>;

export interface UploadSession {
  upload_id: string;
  key: string;
  /** Bytes per part (every part but the last). */
  part_size: number;
  /** Whether parts may go straight to storage on presigned URLs (CONSOLE_STORAGE_PUBLIC_URL is set). */
  direct: boolean;
}

export interface UploadedPart {
  part_number: number;
  etag: string;
  size: number;
}

export interface PendingUpload {
  key: string;
  upload_id: string;
  initiated: string;
}

/** POST /buckets/{bucket}/uploads/{id}/complete */
export const CompleteUploadInput = s.object({
  key: s.string({ min: 1 }),
  parts: s.array(
    s.object({ part_number: s.number({ min: 1, max: 10_000, integer: true }), etag: s.string({ min: 1 }) }),
    { min: 1, max: 10_000 },
  ),
});
export type CompleteUploadInput = s.Infer<typeof CompleteUploadInput>;

/** One hit of a bucket search, or progress, streamed as NDJSON lines. */
export type SearchEvent =
  | { type: "hit"; object: ObjectItem }
  | { type: "progress"; scanned: number }
  | { type: "done"; scanned: number; hits: number }
  | { type: "error"; message: string };

/** A share link as the "Shared links" view lists it. */
export interface ShareLink {
  /** The storage credential behind the link (revoking deletes it). */
  id: string;
  bucket: string;
  object: string;
  version_id?: string;
  expires: string;
  /** Whether the link goes through the console's own address. */
  via_console: boolean;
}

export interface ShareLinkList {
  links: ShareLink[];
}
