/** Multipart uploads: create, complete, abort, list parts (minio-protocol §5.16); parts are upload_part.ts. */
import {
  CHECKSUM_ALGORITHMS,
  checksumAlgorithmOf,
  checksumElement,
  checksumHeader,
  isChecksumValue,
} from "../../lib/s3/checksums.ts";
import { children, childText } from "../../lib/s3/xml.ts";
import {
  abortUpload,
  completeUpload,
  type ExpectedChecksum,
  initiateUpload,
  listParts,
  readUpload,
  type UploadRef,
} from "../fs/multipart.ts";
import { isCompressible } from "../fs/compression.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { checksumHeaders, checksumXml, invalidChecksum } from "./checksums.ts";
import {
  bucketOf,
  emptyResponse,
  notifyObject,
  OWNER,
  readXmlBody,
  type S3Request,
  versionIdHeader,
  xmlResponse,
  xmlTime,
} from "./context.ts";
import { quotaGuard, writeOptionsFromHeaders } from "./objects.ts";
import { writePrecondition } from "./preconditions.ts";
import { replicateAfterWrite, replicationOnWrite } from "../replication/hooks.ts"; // replication hooks
import { sseForCompletion, sseForWrite, sseResponseHeaders, uploadSseOf } from "../sse/request.ts";
import { openMeta } from "../sse/seal.ts";
import { EncryptedJoin } from "../sse/stored.ts";
import { StoreError } from "../core/errors.ts";

/** The upload a request names: its id, bound to the request's bucket and key (fs/multipart.ts UploadRef). */
const uploadRef = (ctx: S3Request): UploadRef => ({
  bucket: ctx.bucket,
  key: ctx.key,
  uploadId: ctx.query.get("uploadId")!,
});

export async function createMultipartUpload(ctx: S3Request): Promise<Response> {
  const problem = objectKeyProblem(ctx.key);
  if (problem) throw new StoreError("KeyTooLongError", problem, 400);
  const state = bucketOf(ctx);
  const { beforeCommit: _b, expectedSize: _e, etag: _t, now: _n, checksum: _c, ...options } =
    await writeOptionsFromHeaders(ctx, state, ctx.request.headers);
  const checksum = uploadChecksum(ctx.request.headers);
  writePrecondition(ctx.request.headers)?.(state.objects.get(ctx.key)?.versions[0]);
  // SSE hook (server/storage/sse): the upload's object key, sealed; every part is encrypted with it.
  const sse = await sseForWrite(ctx, ctx.request.headers);
  if (sse?.write.key.type === "SSE-C" && checksum?.type === "FULL_OBJECT") {
    throw new StoreError(
      "NotImplemented",
      "Full-object checksums are not supported for multipart uploads with customer-provided keys",
      501,
    );
  }
  // Compression (fs/compression.ts) is decided here, on the key and content type; encrypted objects never are.
  const compress = !sse && isCompressible(ctx.key, options.contentType, ctx.facts.compression());
  const upload = await initiateUpload(
    ctx.store,
    state,
    ctx.key,
    options,
    checksum,
    sse ? uploadSseOf(sse.write) : undefined,
    compress,
  );
  const headers: Record<string, string> = checksum
    ? { "x-amz-checksum-algorithm": checksum.algorithm, "x-amz-checksum-type": checksum.type }
    : {};
  Object.assign(headers, sse?.headers);
  return xmlResponse("InitiateMultipartUploadResult", {
    Bucket: ctx.bucket,
    Key: ctx.key,
    UploadId: upload.uploadId,
  }, { headers });
}

/**
 * The checksum an upload's parts and object carry: x-amz-checksum-algorithm and (current releases)
 * x-amz-checksum-type; FULL_OBJECT only for CRC types, CRC64NVME always full-object (minio-protocol-2 §8.4).
 */
function uploadChecksum(headers: Headers) {
  const text = headers.get("x-amz-checksum-algorithm");
  const typeText = headers.get("x-amz-checksum-type")?.toUpperCase();
  if (text === null) {
    if (typeText) throw invalidChecksum();
    return undefined;
  }
  const algorithm = checksumAlgorithmOf(text);
  if (!algorithm || (typeText && typeText !== "COMPOSITE" && typeText !== "FULL_OBJECT")) {
    throw invalidChecksum();
  }
  const isCrc = algorithm.startsWith("CRC");
  if (typeText === "FULL_OBJECT" && !isCrc) throw invalidChecksum();
  if (typeText === "COMPOSITE" && algorithm === "CRC64NVME") throw invalidChecksum();
  const type = algorithm === "CRC64NVME" || typeText === "FULL_OBJECT"
    ? "FULL_OBJECT" as const
    : "COMPOSITE" as const;
  return { algorithm, type };
}

export async function completeMultipartUpload(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  // Its x-amz-checksum-* headers describe the object, not this XML body.
  const root = await readXmlBody(ctx, "CompleteMultipartUpload", { objectChecksum: true });
  const parts = children(root, "Part").map((p) => {
    const checksums: Record<string, string> = {};
    for (const algorithm of CHECKSUM_ALGORITHMS) {
      const value = childText(p, checksumElement(algorithm));
      if (value) checksums[algorithm] = value;
    }
    return { partNumber: Number(childText(p, "PartNumber")), etag: childText(p, "ETag") ?? "", checksums };
  });
  const ref = uploadRef(ctx);
  const upload = await readUpload(ctx.store, ref);
  // If-Match / If-None-Match: checked before the parts are joined, and again under the key's lock at commit.
  const precondition = writePrecondition(ctx.request.headers);
  precondition?.(state.objects.get(ctx.key)?.versions[0]);
  // SSE hook: encrypted parts are joined as stored.
  const completion = upload.sse ? await sseForCompletion(ctx, upload.sse) : undefined;
  const sse = completion ? new EncryptedJoin(completion.write, completion.objectKey) : undefined;
  const replication = await replicationOnWrite(ctx, ctx.key, upload.options.tags); // replication hook
  const { version } = await completeUpload(ctx.store, state, ref, parts, {
    beforeCommit: quotaGuard(ctx, state),
    precondition,
    expectedChecksum: expectedObjectChecksum(ctx.request.headers),
    replication,
    sse,
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:CompleteMultipartUpload", ctx.key, version);
  const sealedChecksum = version.sse && completion
    ? (await openMeta(completion.write.metaKey, version.sse.sealedMeta)).checksum
    : undefined;
  const headers = versionIdHeader(version.versionId);
  Object.assign(headers, await ctx.store.lifecycle?.headers(state, ctx.key, version)); // lifecycle hook
  return xmlResponse("CompleteMultipartUploadResult", {
    Location: `${ctx.url.origin}/${ctx.bucket}/${ctx.key}`,
    Bucket: ctx.bucket,
    Key: ctx.key,
    ETag: `"${version.etag}"`,
    ...checksumXml(version.checksum ?? sealedChecksum),
    ChecksumType: (version.checksum ?? sealedChecksum)?.type,
  }, {
    headers: {
      ...headers,
      ...checksumHeaders(version.checksum ?? sealedChecksum),
      ...sseResponseHeaders(version.sse),
    },
  });
}

/** A whole-object value sent with CompleteMultipartUpload (composite form "<base64>-<N>" allowed). */
function expectedObjectChecksum(headers: Headers): ExpectedChecksum | undefined {
  const typeText = headers.get("x-amz-checksum-type")?.toUpperCase();
  if (typeText !== undefined && typeText !== "FULL_OBJECT" && typeText !== "COMPOSITE") {
    throw invalidChecksum();
  }
  const present = CHECKSUM_ALGORITHMS.filter((a) => headers.has(checksumHeader(a)));
  if (present.length > 1) throw invalidChecksum();
  if (present.length === 0) return undefined;
  const algorithm = present[0];
  const m = /^([^-]*)(?:-(\d+))?$/.exec(headers.get(checksumHeader(algorithm))!.trim());
  if (!m || !isChecksumValue(algorithm, m[1])) throw invalidChecksum();
  return { algorithm, value: m[1], parts: m[2] === undefined ? undefined : Number(m[2]), type: typeText };
}

export async function abortMultipartUpload(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await abortUpload(ctx.store, uploadRef(ctx));
  return emptyResponse(204);
}

export async function listPartsHandler(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const ref = uploadRef(ctx);
  const parts = await listParts(ctx.store, ref);
  const { checksum } = await readUpload(ctx.store, ref);
  const marker = Number(ctx.query.get("part-number-marker") ?? 0);
  const maxParts = Math.min(Number(ctx.query.get("max-parts") ?? 1000) || 1000, 1000);
  const after = parts.filter((p) => p.partNumber > marker);
  const page = after.slice(0, maxParts);
  return xmlResponse("ListPartsResult", {
    Bucket: ctx.bucket,
    Key: ctx.key,
    UploadId: ref.uploadId,
    Initiator: OWNER,
    Owner: OWNER,
    StorageClass: "STANDARD",
    PartNumberMarker: marker,
    NextPartNumberMarker: page.length ? page[page.length - 1].partNumber : 0,
    MaxParts: maxParts,
    IsTruncated: after.length > maxParts,
    ChecksumAlgorithm: checksum?.algorithm,
    ChecksumType: checksum?.type,
    Part: page.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: xmlTime(p.lastModified),
      ETag: `"${p.etag}"`,
      Size: p.size,
      ...checksumXml(p.checksum),
    })),
  });
}
