/** Bucket lifecycle operations: ListBuckets, CreateBucket, HeadBucket, GetBucketLocation, DeleteBucket (minio-protocol §5.2–5.3). */
import type { S3Client } from "../client.ts";
import { S3Error } from "../errors.ts";
import { buildXml, child, children, childText, parseXml } from "../xml.ts";

export interface BucketEntry {
  name: string;
  creationDate: string;
}

export async function listBuckets(client: S3Client): Promise<BucketEntry[]> {
  const root = parseXml(await client.text({ method: "GET", path: "/" }));
  return children(child(root, "Buckets"), "Bucket").map((b) => ({
    name: childText(b, "Name") ?? "",
    creationDate: childText(b, "CreationDate") ?? "",
  }));
}

export async function makeBucket(
  client: S3Client,
  name: string,
  options: { objectLock?: boolean; location?: string } = {},
): Promise<void> {
  const headers: Record<string, string> = {};
  if (options.objectLock) headers["x-amz-bucket-object-lock-enabled"] = "true";
  const body = options.location && options.location !== "us-east-1"
    ? buildXml("CreateBucketConfiguration", { LocationConstraint: options.location }, { prologue: false })
    : undefined;
  await client.empty({ method: "PUT", bucket: name, headers, body });
}

/** True when the bucket exists and the caller may see it; false on 404. */
export async function headBucket(client: S3Client, name: string): Promise<boolean> {
  const res = await client.send({ method: "HEAD", bucket: name, allow: [404] });
  await res.body?.cancel();
  return res.status !== 404;
}

/** Region of the bucket; empty constraint means us-east-1. */
export async function getBucketLocation(client: S3Client, name: string): Promise<string> {
  const root = parseXml(await client.text({ method: "GET", bucket: name, query: { location: "" } }));
  return root.text.trim() || "us-east-1";
}

/** Deletes a bucket; `force` uses MinIO's x-minio-force-delete (needs s3:ForceDeleteBucket). */
export async function deleteBucket(
  client: S3Client,
  name: string,
  options: { force?: boolean } = {},
): Promise<void> {
  await client.empty({
    method: "DELETE",
    bucket: name,
    headers: options.force ? { "x-minio-force-delete": "true" } : {},
  });
}

/** Whether an error means "this configuration is not set" (any of S3's *NotFound codes for configs). */
export function isNotConfigured(error: unknown): boolean {
  return error instanceof S3Error && error.status === 404 && error.code !== "NoSuchBucket";
}
