/** Per-object tagging, retention and legal hold (minio-protocol §5.17–5.18). */
import type { S3Client } from "../client.ts";
import { S3Error } from "../errors.ts";
import { md5Base64 } from "../md5.ts";
import { buildXml, childText, parseXml } from "../xml.ts";
import { parseTagsXml, type Tags, tagsXml } from "./bucket_config.ts";
import { isNotConfigured } from "./buckets.ts";

export async function getObjectTagging(
  client: S3Client,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<Tags> {
  return parseTagsXml(await client.text({ method: "GET", bucket, key, query: { tagging: "", versionId } }));
}

/** Replaces the object's tags; an empty set deletes them. */
export async function putObjectTagging(
  client: S3Client,
  bucket: string,
  key: string,
  tags: Tags,
  versionId?: string,
): Promise<void> {
  if (Object.keys(tags).length === 0) {
    try {
      await client.empty({ method: "DELETE", bucket, key, query: { tagging: "", versionId } });
      return;
    } catch (error) {
      // Servers without DeleteObjectTagging (s3rver) clear the tags with an empty tag set instead.
      if (!(error instanceof S3Error && (error.code === "NotImplemented" || error.status === 501))) {
        throw error;
      }
    }
  }
  await client.empty({ method: "PUT", bucket, key, query: { tagging: "", versionId }, body: tagsXml(tags) });
}

export interface Retention {
  mode: "GOVERNANCE" | "COMPLIANCE";
  until: string;
}

/** The object's retention, or null when it has none. */
export async function getObjectRetention(
  client: S3Client,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<Retention | null> {
  try {
    const root = parseXml(
      await client.text({ method: "GET", bucket, key, query: { retention: "", versionId } }),
    );
    const mode = childText(root, "Mode");
    return mode ? { mode: mode as Retention["mode"], until: childText(root, "RetainUntilDate") ?? "" } : null;
  } catch (error) {
    if (isNotConfigured(error)) return null;
    throw error;
  }
}

/** Sets (or with null clears, which needs bypass under GOVERNANCE) the object's retention. */
export async function putObjectRetention(
  client: S3Client,
  bucket: string,
  key: string,
  retention: Retention | null,
  options: { versionId?: string; bypassGovernance?: boolean } = {},
): Promise<void> {
  const body = buildXml(
    "Retention",
    retention ? { Mode: retention.mode, RetainUntilDate: retention.until } : {},
  );
  const headers: Record<string, string> = { "content-md5": await md5Base64(body) };
  if (options.bypassGovernance) headers["x-amz-bypass-governance-retention"] = "true";
  await client.empty({
    method: "PUT",
    bucket,
    key,
    query: { retention: "", versionId: options.versionId },
    body,
    headers,
  });
}

export async function getObjectLegalHold(
  client: S3Client,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<boolean> {
  try {
    const root = parseXml(
      await client.text({ method: "GET", bucket, key, query: { "legal-hold": "", versionId } }),
    );
    return childText(root, "Status") === "ON";
  } catch (error) {
    if (isNotConfigured(error)) return false;
    throw error;
  }
}

export async function putObjectLegalHold(
  client: S3Client,
  bucket: string,
  key: string,
  on: boolean,
  versionId?: string,
): Promise<void> {
  const body = buildXml("LegalHold", { Status: on ? "ON" : "OFF" });
  await client.empty({
    method: "PUT",
    bucket,
    key,
    query: { "legal-hold": "", versionId },
    body,
    headers: { "content-md5": await md5Base64(body) },
  });
}
