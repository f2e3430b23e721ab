/**
 * A whole object written at once: PutObject, CopyObject and PostObject, through the write path's steps in
 * the order path.ts gives. What each kind honours differs only where S3 and MinIO differ: If-Match /
 * If-None-Match and a replicating source's version are PutObject's, and a form's upload is never compressed
 * (MinIO's PostPolicyBucketHandler does not compress).
 */
import { type Trailer, verifyDigests } from "../auth/body.ts";
import { stageData } from "../fs/staging.ts";
import { StoreError } from "../core/errors.ts";
import type { BucketState, StoredChecksum, VersionRecord, VersionSettings } from "../core/records.ts";
import { replicationOnWrite, replicaWriteOptions } from "../replication/hooks.ts";
import { sseForWrite } from "../sse/request.ts";
import { stageForWrite } from "../sse/staging.ts";
import { checksummedBody, type ChecksumSpec, declaredChecksum } from "./checksums.ts";
import { writePrecondition } from "./conditions.ts";
import { afterWrite, commitWrite, qualifiesForCompression, type WriteContext, type Written } from "./path.ts";
import { settingsFromHeaders } from "./settings.ts";

/** What each kind of write honours. */
const KINDS = {
  put: { event: "s3:ObjectCreated:Put", conditional: true, replica: true, compress: true },
  copy: { event: "s3:ObjectCreated:Copy", conditional: false, replica: false, compress: true },
  post: { event: "s3:ObjectCreated:Post", conditional: false, replica: false, compress: false },
  // A file of an archive unpacked on upload (MinIO's PutObjectExtract reports each one as a Put).
  extract: { event: "s3:ObjectCreated:Put", conditional: false, replica: false, compress: true },
} as const;

/** A whole object's write, as the handler parsed it. */
export interface ObjectWrite {
  kind: keyof typeof KINDS;
  /** Where the settings come from: the request's headers, or a form's fields as headers. */
  headers: Headers;
  /** Opens the body once the write is decided (a copy's source is read only then). */
  body: () => Promise<ReadableStream<Uint8Array> | null>;
  /** Bytes the body must hold (Content-Length, a copy source's size); unknown for a form's file. */
  length?: number;
  /** The aws-chunked trailer that may carry the declared checksum. */
  trailer?: Trailer;
  /** A Content-MD5 not verified yet (a form's field: a request's header is verified with its signature). */
  contentMd5?: string;
  /** CopyObject: its source and directives. */
  copy?: CopyOrigin;
  /** When the version is dated, if not when committed (an archive's file keeps its modification time). */
  dated?: Date;
}

/** What a copy starts from. */
export interface CopyOrigin {
  version: VersionRecord;
  /** The source's checksum (opened when the source is encrypted). */
  checksum?: StoredChecksum;
  /** x-amz-metadata-directive and x-amz-tagging-directive. */
  metadata: "COPY" | "REPLACE";
  tagging: "COPY" | "REPLACE";
  /** The copy names its own key as its source, without a version. */
  sameObject: boolean;
}

/** Writes the request's key (its bucket and key are the context's) and returns the new version. */
export async function writeObject(ctx: WriteContext, write: ObjectWrite): Promise<Written> {
  const kind = KINDS[write.kind];
  const state = ctx.store.bucket(ctx.bucket);
  const settings = await settingsOf(ctx, state, write);
  const replica = kind.replica ? replicaWriteOptions(ctx) : undefined;
  const precondition = kind.conditional ? writePrecondition(write.headers) : undefined;
  precondition?.(state.objects.get(ctx.key)?.versions[0]);
  const sse = await sseForWrite(ctx, write.headers);
  if (write.copy) refuseCopyWithoutChange(state, write.copy, !!sse);
  const spec = write.copy ? null : declaredChecksum(write.headers, write.trailer);
  let stream = await write.body();
  if (stream && write.contentMd5) stream = verifyDigests(stream, { md5Base64: write.contentMd5 });
  const body = checksummedBody(stream, spec, write.trailer);
  // An encrypted body of known length is sealed as it arrives (its plaintext never reaches the disk).
  const staged = sse && write.length !== undefined
    ? await stageForWrite(ctx.store, body.body, sse.write, write.length)
    : await stageData(ctx.store, body.body, write.length);
  const checksum = checksumOf(spec, body.value, write.copy);
  const compress = kind.compress && qualifiesForCompression(ctx, settings);
  const replication = await replicationOnWrite(ctx, ctx.key, settings.tags);
  const version = await commitWrite(ctx, state, {
    staged,
    settings,
    expectedSize: write.length,
    compress,
    sse: sse?.write,
    checksum,
    replica,
    replication,
    precondition,
    now: write.dated ?? ctx.now,
  });
  const lifecycleHeaders = await afterWrite(ctx, state, version, kind.event);
  return {
    version,
    checksum: version.checksum ?? checksum,
    sseHeaders: sse?.headers ?? {},
    lifecycleHeaders,
  };
}

/** Step 1: the settings from the headers; a copy keeps its source's metadata and tags unless replaced. */
async function settingsOf(
  ctx: WriteContext,
  state: BucketState,
  write: ObjectWrite,
): Promise<VersionSettings> {
  const settings = await settingsFromHeaders(ctx, state, write.headers);
  const copy = write.copy;
  if (!copy) return settings;
  const source = copy.version;
  const kept: VersionSettings = copy.metadata === "REPLACE" ? settings : {
    ...settings,
    contentType: source.contentType,
    userMetadata: source.userMetadata,
    headers: source.headers,
  };
  if (copy.tagging === "COPY") kept.tags = source.tags;
  return kept;
}

/** A copy onto itself must change something (S3's rule; a versioned bucket gets a new version anyway). */
function refuseCopyWithoutChange(state: BucketState, copy: CopyOrigin, encrypts: boolean): void {
  if (
    copy.sameObject && copy.metadata === "COPY" && copy.tagging === "COPY" && !state.meta.versioning &&
    !encrypts && !copy.version.sse
  ) {
    throw new StoreError(
      "InvalidRequest",
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
      400,
    );
  }
}

/**
 * Step 5's outcome: the declared checksum as verified; for a copy, its source's whole-object checksum (the
 * bytes are the same, so it still holds; a composite one described the source's parts).
 */
function checksumOf(
  spec: ChecksumSpec | null,
  value: () => string | undefined,
  copy: CopyOrigin | undefined,
): StoredChecksum | undefined {
  if (spec) return { algorithm: spec.algorithm, value: value()!, type: "FULL_OBJECT" };
  return copy?.checksum?.type === "FULL_OBJECT" ? copy.checksum : undefined;
}
