/**
 * What a write sets on the new version besides its bytes, from its headers (a request's, or a form's fields
 * as headers): user metadata, the response headers kept with it, tags, and object lock (a retention and
 * legal hold asked for, or the bucket's default retention); and whether a request may bypass governance
 * retention.
 */
import { invalidArgument, StoreError } from "../core/errors.ts";
import type { BucketState, VersionSettings } from "../core/records.ts";
import type { Store } from "../fs/store.ts";

const STORED_HEADERS = [
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "expires",
];

/** What the write path reads of a request to settle the new version's settings. */
export interface SettingsRequest {
  store: Store;
  bucket: string;
  now: Date;
  request: Request;
  allowed: (action: string, bucket: string, key: string) => boolean;
}

interface DefaultRetention {
  mode: "GOVERNANCE" | "COMPLIANCE";
  days?: number;
  years?: number;
}

/** The bucket's default retention, if any (stored as object-lock.json). */
export async function defaultRetention(
  ctx: { store: Store; bucket: string },
): Promise<DefaultRetention | null> {
  const text = await ctx.store.getDocument(ctx.bucket, "object-lock.json");
  return text ? JSON.parse(text) : null;
}

/** Metadata, stored headers, tags and object lock from a write's headers. */
export async function settingsFromHeaders(
  ctx: SettingsRequest,
  state: BucketState,
  headers: Headers,
): Promise<VersionSettings> {
  const settings: VersionSettings = {
    contentType: headers.get("content-type") ?? undefined,
    ...metadataOf(headers),
  };
  const tagging = headers.get("x-amz-tagging");
  if (tagging) {
    const tags = Object.fromEntries(new URLSearchParams(tagging));
    if (Object.keys(tags).length > 10) {
      throw new StoreError("BadRequest", "Object tags cannot be greater than 10", 400);
    }
    settings.tags = tags;
  }
  return { ...settings, ...await objectLockOf(ctx, state, headers) };
}

/** User metadata and the response headers kept with the version. */
function metadataOf(headers: Headers): Pick<VersionSettings, "userMetadata" | "headers"> {
  const userMetadata: Record<string, string> = {};
  const stored: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith("x-amz-meta-")) userMetadata[name.slice(11)] = value;
    else if (STORED_HEADERS.includes(name)) {
      // aws-chunked describes this request's framing, not the object: it goes, the rest stays as sent.
      stored[name] = name === "content-encoding"
        ? value.split(",").filter((s) => s.trim().toLowerCase() !== "aws-chunked").join(",").trim()
        : value;
    }
  });
  if (stored["content-encoding"]?.trim() === "") delete stored["content-encoding"];
  if (JSON.stringify(userMetadata).length > 8192) {
    throw new StoreError(
      "MetadataTooLarge",
      "Your metadata headers exceed the maximum allowed metadata size.",
      400,
    );
  }
  return { userMetadata, headers: stored };
}

/** The retention and legal hold the headers ask for, else the bucket's default retention. */
async function objectLockOf(
  ctx: SettingsRequest,
  state: BucketState,
  headers: Headers,
): Promise<Pick<VersionSettings, "retention" | "legalHold">> {
  const mode = headers.get("x-amz-object-lock-mode");
  const until = headers.get("x-amz-object-lock-retain-until-date");
  const hold = headers.get("x-amz-object-lock-legal-hold");
  if ((mode || until || hold) && !state.meta.objectLock) {
    throw new StoreError("InvalidRequest", "Bucket is missing ObjectLockConfiguration", 400);
  }
  const lock: Pick<VersionSettings, "retention" | "legalHold"> = {};
  if (mode || until) {
    if (!mode || !until) {
      throw invalidArgument(
        "x-amz-object-lock-mode and x-amz-object-lock-retain-until-date must both be supplied",
      );
    }
    if (mode !== "GOVERNANCE" && mode !== "COMPLIANCE") throw invalidArgument("Unknown wormMode directive.");
    if (Number.isNaN(Date.parse(until)) || Date.parse(until) <= ctx.now.getTime()) {
      throw invalidArgument("The retain until date must be in the future");
    }
    lock.retention = { mode, until: new Date(until).toISOString() };
  } else if (state.meta.objectLock) {
    const fallback = await defaultRetention(ctx);
    if (fallback) {
      const until = new Date(ctx.now);
      if (fallback.days) until.setUTCDate(until.getUTCDate() + fallback.days);
      if (fallback.years) until.setUTCFullYear(until.getUTCFullYear() + fallback.years);
      lock.retention = { mode: fallback.mode, until: until.toISOString() };
    }
  }
  if (hold) {
    if (hold !== "ON" && hold !== "OFF") throw invalidArgument("Unknown legal hold status");
    lock.legalHold = hold === "ON";
  }
  return lock;
}

/** Whether the caller asked to bypass governance retention and may do so. */
export function bypassGovernance(ctx: SettingsRequest, key: string): boolean {
  if (ctx.request.headers.get("x-amz-bypass-governance-retention")?.toLowerCase() !== "true") return false;
  return ctx.allowed("s3:BypassGovernanceRetention", ctx.bucket, key);
}
