/**
 * Moving object bytes through the console, always streamed (nothing buffered whole, no temp files):
 * downloads with ranges, zip archives of a selection or a folder, the spec's form upload, and resumable
 * multipart uploads whose parts the browser sends one request each (or straight to storage on presigned
 * URLs when the storage has a public address).
 */
import type {
  CompleteUploadInput,
  PendingUpload,
  StartUploadInput,
  UploadedPart,
  UploadSession,
} from "../../lib/contract/objects.ts";
import { ApiError } from "../http/errors.ts";
import { isNotImplemented } from "../../lib/s3/probe.ts";
import { type FormPart, formParts } from "../../lib/formats/multipart_form.ts";
import { type ZipEntry, zipStream } from "../../lib/formats/zip.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadPart,
} from "../../lib/s3/ops/multipart.ts";
import { getObject, listObjectsV2, putObject } from "../../lib/s3/ops/objects.ts";
import { contentTypeOf } from "../../lib/contract/content_types.ts";

/** S3's limits: parts of 5 MiB to 5 GiB, at most 10,000 of them. */
const MIN_PART = 5 * 1024 * 1024;
const MAX_PART = 5 * 1024 ** 3;
const MAX_PARTS = 10_000;
/** Parts the browser sends: large enough that 10,000 of them cover 160 GiB, small enough to retry cheaply. */
export const DEFAULT_PART_SIZE = 16 * 1024 * 1024;
/** The form endpoint buffers at most this much of one file before it becomes a multipart upload. */
const FORM_PART_SIZE = 8 * 1024 * 1024;

/** The part size for a file of `size` bytes: the default, or more when 10,000 parts would not hold it. */
export function partSizeFor(size: number): number {
  const needed = Math.ceil(size / MAX_PARTS);
  const mib = 1024 * 1024;
  return Math.max(DEFAULT_PART_SIZE, Math.ceil(needed / mib) * mib);
}

/** A `bytes=` range header worth passing on (one range), else null. */
export function validRange(header: string | undefined): string | null {
  return header && /^bytes=(\d+-\d*|-\d+)$/.test(header.trim()) ? header.trim() : null;
}

/** Reads an object (one range of it when asked) for streaming to the browser. */
export async function openDownload(
  client: S3Client,
  bucket: string,
  key: string,
  options: { versionId?: string; range?: string | null; signal?: AbortSignal },
): Promise<Response> {
  return await getObject(client, bucket, key, {
    versionId: options.versionId,
    headers: options.range ? { range: options.range } : {},
    signal: options.signal,
  });
}

/**
 * Zips objects: the given keys (folders, ending in "/", with all they hold) named relative to `base`. The
 * first entry is opened before answering, so a refusal or a missing object is an error status rather than a
 * broken download.
 */
export async function zipObjects(
  client: S3Client,
  bucket: string,
  paths: string[],
  base: string,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  async function* entries(): AsyncGenerator<ZipEntry> {
    for (const path of paths) {
      if (!path.endsWith("/")) {
        yield objectEntry(client, bucket, path, base, undefined, signal);
        continue;
      }
      let token: string | undefined;
      do {
        const page = await listObjectsV2(client, bucket, { prefix: path, continuationToken: token });
        for (const object of page.objects) {
          yield objectEntry(client, bucket, object.key, base, object.lastModified, signal);
        }
        token = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (token);
    }
  }
  const all = entries();
  const first = await all.next();
  async function* checked(): AsyncGenerator<ZipEntry> {
    if (first.done) return;
    const opened = await first.value.open();
    yield { ...first.value, open: () => Promise.resolve(opened) };
    yield* all;
  }
  const rest = checked();
  const head = await rest.next();
  return zipStream((async function* () {
    if (!head.done) yield head.value;
    yield* rest;
  })());
}

function objectEntry(
  client: S3Client,
  bucket: string,
  key: string,
  base: string,
  lastModified: string | undefined,
  signal?: AbortSignal,
): ZipEntry {
  return {
    name: key.startsWith(base) ? key.slice(base.length) : key,
    modified: lastModified ? new Date(lastModified) : new Date(),
    open: async () => {
      const res = await getObject(client, bucket, key, { signal });
      return { size: Number(res.headers.get("content-length") ?? 0), body: res.body };
    },
  };
}

/** Reads exactly up to `size` bytes of a part's data into one buffer; `ended` tells whether the part ended. */
async function fill(
  data: AsyncGenerator<Uint8Array>,
  size: number,
  carry: Uint8Array | null,
): Promise<{ bytes: Uint8Array; ended: boolean; carry: Uint8Array | null }> {
  const buffer = new Uint8Array(size);
  let at = 0;
  let rest = carry;
  while (at < size) {
    const piece = rest ?? (await data.next()).value as Uint8Array | undefined;
    rest = null;
    if (!piece) return { bytes: buffer.subarray(0, at), ended: true, carry: null };
    const n = Math.min(piece.length, size - at);
    buffer.set(piece.subarray(0, n), at);
    at += n;
    if (n < piece.length) rest = piece.slice(n);
  }
  return { bytes: buffer, ended: false, carry: rest };
}

/**
 * Stores one file part of a form upload under `key`: a file that fits one buffer is a single PUT; a larger
 * one becomes a multipart upload, a buffer at a time (aborted if anything fails, so no parts stay behind).
 */
async function storeFormFile(
  client: S3Client,
  bucket: string,
  key: string,
  part: FormPart,
  signal?: AbortSignal,
): Promise<void> {
  const data = part.data();
  const contentType = part.contentType && part.contentType !== "application/octet-stream"
    ? part.contentType
    : contentTypeOf(key);
  let chunk = await fill(data, FORM_PART_SIZE, null);
  if (chunk.ended) {
    await putObject(client, bucket, key, chunk.bytes, { contentType });
    return;
  }
  const uploadId = await createMultipartUpload(client, bucket, key, { contentType });
  try {
    const parts: { partNumber: number; etag: string }[] = [];
    while (chunk.bytes.length > 0) {
      if (signal?.aborted) throw signal.reason;
      const partNumber = parts.length + 1;
      parts.push({
        partNumber,
        etag: await uploadPart(client, bucket, key, uploadId, partNumber, chunk.bytes),
      });
      if (chunk.ended) break;
      chunk = await fill(data, FORM_PART_SIZE, chunk.carry);
    }
    await completeMultipartUpload(client, bucket, key, uploadId, parts);
  } catch (error) {
    await abortMultipartUpload(client, bucket, key, uploadId).catch(() => {});
    throw error;
  }
}

/**
 * POST /buckets/{bucket}/objects/upload (api-index §6): each file part's field name is the object name,
 * appended to `prefix`. Files are stored in order as they stream in.
 */
export async function uploadForm(
  client: S3Client,
  bucket: string,
  prefix: string,
  body: ReadableStream<Uint8Array>,
  boundary: string,
  signal?: AbortSignal,
): Promise<number> {
  let stored = 0;
  for await (const part of formParts(body, boundary)) {
    if (part.filename === undefined) continue; // plain fields carry nothing to store
    const key = prefix + part.name;
    if (!part.name || new TextEncoder().encode(key).length > 1024) {
      throw ApiError.badRequest("invalid object name", `"${key}" is empty or longer than 1024 bytes`);
    }
    await storeFormFile(client, bucket, key, part, signal);
    stored++;
  }
  return stored;
}

/** POST /buckets/{bucket}/uploads: a multipart upload the browser fills part by part. */
export async function startUpload(
  client: S3Client,
  bucket: string,
  input: StartUploadInput,
  direct: boolean,
): Promise<UploadSession> {
  const partSize = partSizeFor(input.size);
  if (partSize > MAX_PART) {
    throw ApiError.badRequest("file too large", "A file can be at most 48.8 TiB (10,000 parts of 5 GiB).");
  }
  const uploadId = await createMultipartUpload(client, bucket, input.key, {
    contentType: input.content_type || contentTypeOf(input.key),
  });
  return { upload_id: uploadId, key: input.key, part_size: partSize, direct };
}

export async function uploadedParts(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<UploadedPart[]> {
  return (await listParts(client, bucket, key, uploadId)).map((p) => ({
    part_number: p.partNumber,
    etag: p.etag,
    size: p.size,
  }));
}

export async function pendingUploads(
  client: S3Client,
  bucket: string,
  prefix: string,
): Promise<PendingUpload[]> {
  // A server that cannot list multipart uploads (s3rver) has none to resume as far as anyone can tell.
  const listed = await listMultipartUploads(client, bucket, prefix).catch((error) => {
    if (isNotImplemented(error)) return [];
    throw error;
  });
  return listed.map((u) => ({
    key: u.key,
    upload_id: u.uploadId,
    initiated: u.initiated,
  }));
}

/** Streams one part from the browser to storage as it arrives (its Content-Length is the part's size). */
export async function relayPart(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  partNumber: number,
  body: ReadableStream<Uint8Array>,
  length: number,
  signal?: AbortSignal,
): Promise<UploadedPart> {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    throw ApiError.badRequest("invalid part number", "Part numbers go from 1 to 10000.");
  }
  if (length > MAX_PART) {
    throw new ApiError(413, "part too large", { detail: "A part can be at most 5 GiB." });
  }
  const etag = await uploadPart(client, bucket, key, uploadId, partNumber, body, length, {
    unsignedPayload: true,
    signal,
  });
  return { part_number: partNumber, etag, size: length };
}

export async function finishUpload(
  client: S3Client,
  bucket: string,
  uploadId: string,
  input: CompleteUploadInput,
): Promise<{ etag: string; version_id?: string }> {
  const parts = [...input.parts].sort((a, b) => a.part_number - b.part_number).map((p) => ({
    partNumber: p.part_number,
    etag: p.etag,
  }));
  const done = await completeMultipartUpload(client, bucket, input.key, uploadId, parts);
  return { etag: done.etag, version_id: done.versionId };
}

export async function cancelUpload(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  await abortMultipartUpload(client, bucket, key, uploadId);
}

/** A presigned UploadPart URL on the storage's public address (valid one hour). */
export async function presignPart(
  publicClient: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  partNumber: number,
): Promise<string> {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    throw ApiError.badRequest("invalid part number", "Part numbers go from 1 to 10000.");
  }
  return (await publicClient.presign("PUT", bucket, key, 3600, { partNumber, uploadId })).href;
}

export { MIN_PART };
