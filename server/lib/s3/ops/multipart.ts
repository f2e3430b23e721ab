/** Multipart upload (minio-protocol §5.16). */
import type { S3Client } from "../client.ts";
import { buildXml, children, childText, parseXml } from "../xml.ts";
import { copySourceHeader, putHeaders, type PutObjectOptions } from "./objects.ts";

export async function createMultipartUpload(
  client: S3Client,
  bucket: string,
  key: string,
  options: PutObjectOptions = {},
): Promise<string> {
  const headers = putHeaders(options);
  const root = parseXml(await client.text({ method: "POST", bucket, key, query: { uploads: "" }, headers }));
  return childText(root, "UploadId") ?? "";
}

export async function uploadPart(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  partNumber: number,
  body: Uint8Array | ReadableStream<Uint8Array>,
  size?: number,
  options: { unsignedPayload?: boolean; signal?: AbortSignal } = {},
): Promise<string> {
  const res = await client.empty({
    method: "PUT",
    bucket,
    key,
    query: { partNumber, uploadId },
    body,
    contentLength: size,
    ...options,
  });
  return (res.headers.get("etag") ?? "").replace(/"/g, "");
}

/**
 * UploadPartCopy: one part copied server-side from a range of an existing object (AWS API reference,
 * UploadPartCopy; `range` is [first, last] inclusive, as x-amz-copy-source-range counts). Resolves with the
 * part's ETag.
 */
export async function uploadPartCopy(
  client: S3Client,
  target: { bucket: string; key: string; uploadId: string; partNumber: number },
  source: { bucket: string; key: string; versionId?: string },
  range: [number, number],
  headers: Record<string, string> = {},
): Promise<string> {
  const text = await client.text({
    method: "PUT",
    bucket: target.bucket,
    key: target.key,
    query: { partNumber: target.partNumber, uploadId: target.uploadId },
    headers: {
      ...headers,
      "x-amz-copy-source": copySourceHeader(source),
      "x-amz-copy-source-range": `bytes=${range[0]}-${range[1]}`,
    },
  });
  return (childText(parseXml(text), "ETag") ?? "").replace(/"/g, "");
}

export async function completeMultipartUpload(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
): Promise<{ etag: string; versionId?: string }> {
  const body = buildXml("CompleteMultipartUpload", {
    Part: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag}"` })),
  });
  const res = await client.send({ method: "POST", bucket, key, query: { uploadId }, body });
  const root = parseXml(await res.text());
  return {
    etag: (childText(root, "ETag") ?? "").replace(/"/g, ""),
    versionId: res.headers.get("x-amz-version-id") ?? undefined,
  };
}

export async function abortMultipartUpload(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  await client.empty({ method: "DELETE", bucket, key, query: { uploadId } });
}

/** Every part of an upload (follows part-number markers past 1,000 parts). */
export async function listParts(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<{ partNumber: number; etag: string; size: number }[]> {
  const parts: { partNumber: number; etag: string; size: number }[] = [];
  let marker = 0;
  while (true) {
    const root = parseXml(
      await client.text({
        method: "GET",
        bucket,
        key,
        query: { uploadId, "part-number-marker": marker || undefined },
      }),
    );
    parts.push(
      ...children(root, "Part").map((p) => ({
        partNumber: Number(childText(p, "PartNumber")),
        etag: (childText(p, "ETag") ?? "").replace(/"/g, ""),
        size: Number(childText(p, "Size")),
      })),
    );
    if (childText(root, "IsTruncated") !== "true") return parts;
    marker = Number(childText(root, "NextPartNumberMarker"));
  }
}

/** Unfinished uploads under a prefix (follows the key and upload-id markers). */
export async function listMultipartUploads(
  client: S3Client,
  bucket: string,
  prefix = "",
): Promise<{ key: string; uploadId: string; initiated: string }[]> {
  const uploads: { key: string; uploadId: string; initiated: string }[] = [];
  let markers: { keyMarker?: string; uploadIdMarker?: string } = {};
  while (true) {
    const root = parseXml(
      await client.text({
        method: "GET",
        bucket,
        query: {
          uploads: "",
          prefix,
          "key-marker": markers.keyMarker,
          "upload-id-marker": markers.uploadIdMarker,
        },
      }),
    );
    uploads.push(
      ...children(root, "Upload").map((u) => ({
        key: childText(u, "Key") ?? "",
        uploadId: childText(u, "UploadId") ?? "",
        initiated: childText(u, "Initiated") ?? "",
      })),
    );
    if (childText(root, "IsTruncated") !== "true") return uploads;
    markers = {
      keyMarker: childText(root, "NextKeyMarker"),
      uploadIdMarker: childText(root, "NextUploadIdMarker"),
    };
  }
}
