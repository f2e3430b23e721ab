/**
 * One part of a multipart upload through the write path (path.ts gives the order): UploadPart's body or
 * UploadPartCopy's range gets the upload's encryption (step 4) and checksum (step 5), is staged (step 6),
 * and is stored compressed when the upload's object qualifies. A part is not a version: it is committed
 * into its upload's directory, and only completion makes the object.
 */
import type { Trailer } from "../auth/body.ts";
import { incompleteBody } from "../core/errors.ts";
import type { PartInfo, UploadInfo } from "../core/records.ts";
import { compressStaged } from "../fs/compression.ts";
import { checkPart, storePart, type UploadRef } from "../fs/multipart.ts";
import { discardStaged, stageData } from "../fs/staging.ts";
import { sseForPart } from "../sse/request.ts";
import { stageEncrypted } from "../sse/staging.ts";
import { checksummedBody, declaredChecksum, invalidChecksum } from "./checksums.ts";
import type { WriteContext } from "./path.ts";

/** A part's bytes, as the handler parsed the request. */
export interface PartWrite {
  partNumber: number;
  /** Opens the bytes once the part is decided (a copied range is read only then). */
  body: () => Promise<ReadableStream<Uint8Array> | null>;
  /** Bytes the part must hold (Content-Length, or the copied range's length). */
  length: number;
  /** An UploadPart's body declares its own checksum (a header, or this trailer); a copied range has none. */
  copied: boolean;
  trailer?: Trailer;
}

/** Stores one part of `upload`; the part as ListParts shows it, and SSE's response headers. */
export async function writePart(
  ctx: WriteContext,
  ref: UploadRef,
  upload: UploadInfo,
  write: PartWrite,
): Promise<{ part: PartInfo; sseHeaders: Record<string, string> }> {
  const spec = write.copied ? null : declaredChecksum(ctx.request.headers, write.trailer);
  if (spec && upload.checksum && spec.algorithm !== upload.checksum.algorithm) throw invalidChecksum();
  // The part is sealed with the upload's key (SSE-C: the request's customer key) as it arrives.
  const sse = await sseForPart(ctx, upload.sse);
  // Parts of an upload created with an algorithm get its checksum even when the client sent none.
  const algorithm = spec?.algorithm ?? upload.checksum?.algorithm;
  const body = checksummedBody(await write.body(), spec, write.trailer, upload.checksum?.algorithm);
  const staged = sse.objectKey
    ? (await stageEncrypted(ctx.store, body.body, sse.objectKey, write.length)).staged
    : await stageData(ctx.store, body.body, write.length);
  if (staged.size !== write.length) {
    await discardStaged(staged);
    throw incompleteBody();
  }
  const part: PartInfo = {
    partNumber: write.partNumber,
    etag: staged.md5Hex,
    size: staged.size,
    lastModified: new Date().toISOString(),
    checksum: algorithm ? { algorithm, value: body.value()! } : undefined,
  };
  const current = await checkPart(ctx.store, ref, write.partNumber, staged);
  // The part's size and ETag stay those of the bytes sent; what is stored is their gzip member.
  const stored = current.compress && !current.sse
    ? (await compressStaged(ctx.store.tmpDir, staged)).staged
    : staged;
  await storePart(ctx.store, ref, stored, part);
  return { part, sseHeaders: sse.headers };
}
