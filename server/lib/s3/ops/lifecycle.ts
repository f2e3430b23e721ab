/**
 * Bucket lifecycle configuration as typed rules, with XML conversion shared by the client and the embedded
 * server's validation (minio-protocol §5.8).
 */
import type { S3Client } from "../client.ts";
import { md5Base64 } from "../md5.ts";
import {
  buildXml,
  child,
  children,
  childText,
  parseXml,
  XmlError,
  type XmlNode,
  type XmlObject,
} from "../xml.ts";
import { isNotConfigured } from "./buckets.ts";

export interface Tag {
  key: string;
  value: string;
}

export interface LifecycleRule {
  id: string;
  status: "Enabled" | "Disabled";
  prefix?: string;
  /**
   * The prefix stands outside a Filter, as the older PutBucketLifecycle form sends it; the rule is written
   * back the same way.
   */
  prefixOutsideFilter?: boolean;
  tags?: Tag[];
  /** Size filters (bytes): the rule applies only to versions larger / smaller than these. */
  sizeGreaterThan?: number;
  sizeLessThan?: number;
  expiration?: { days?: number; date?: string; expiredObjectDeleteMarker?: boolean };
  transition?: { days?: number; date?: string; storageClass: string };
  noncurrentExpiration?: { noncurrentDays: number; newerNoncurrentVersions?: number };
  noncurrentTransition?: { noncurrentDays: number; storageClass: string };
  abortIncompleteMultipartUploadDays?: number;
}

const num = (text: string | undefined) => (text === undefined || text === "" ? undefined : Number(text));

function parseFilter(
  rule: XmlNode,
): Pick<LifecycleRule, "prefix" | "prefixOutsideFilter" | "tags" | "sizeGreaterThan" | "sizeLessThan"> {
  const filter = child(rule, "Filter");
  const and = child(filter, "And");
  const scope = and ?? filter;
  const tagNodes = children(scope, "Tag");
  const tags = tagNodes.map((t) => ({ key: childText(t, "Key") ?? "", value: childText(t, "Value") ?? "" }));
  const outside = childText(rule, "Prefix");
  const inside = childText(scope, "Prefix");
  // A prefix both outside and inside the Filter is not a rule MinIO accepts.
  if (outside !== undefined && inside !== undefined) {
    throw new XmlError("Prefix given outside and inside Filter");
  }
  const prefix = inside ?? outside;
  const greater = num(childText(scope, "ObjectSizeGreaterThan"));
  const less = num(childText(scope, "ObjectSizeLessThan"));
  return {
    prefix: prefix || undefined,
    ...(outside !== undefined ? { prefixOutsideFilter: true } : {}),
    tags: tags.length ? tags : undefined,
    ...(greater !== undefined ? { sizeGreaterThan: greater } : {}),
    ...(less !== undefined ? { sizeLessThan: less } : {}),
  };
}

export function filterXml(
  prefix: string | undefined,
  tags: Tag[] | undefined,
  size: { greater?: number; less?: number } = {},
): XmlObject {
  const tagList = (tags ?? []).map((t) => ({ Key: t.key, Value: t.value }));
  const sizes = { ObjectSizeGreaterThan: size.greater, ObjectSizeLessThan: size.less };
  const conditions = tagList.length + (prefix ? 1 : 0) + (size.greater !== undefined ? 1 : 0) +
    (size.less !== undefined ? 1 : 0);
  if (conditions === 0) return {};
  if (conditions === 1) return tagList.length ? { Tag: tagList[0] } : prefix ? { Prefix: prefix } : sizes;
  return { And: { Prefix: prefix || undefined, Tag: tagList.length ? tagList : undefined, ...sizes } };
}

function noncurrentExpiration(node: XmlNode): LifecycleRule["noncurrentExpiration"] {
  const newer = num(childText(node, "NewerNoncurrentVersions"));
  return {
    noncurrentDays: num(childText(node, "NoncurrentDays")) ?? 0,
    ...(newer !== undefined ? { newerNoncurrentVersions: newer } : {}),
  };
}

/** Parses a LifecycleConfiguration document; throws XmlError on malformed XML. */
export function parseLifecycleXml(text: string): LifecycleRule[] {
  return children(parseXml(text), "Rule").map((rule) => {
    const exp = child(rule, "Expiration");
    const tr = child(rule, "Transition");
    const nce = child(rule, "NoncurrentVersionExpiration");
    const nct = child(rule, "NoncurrentVersionTransition");
    const abort = child(rule, "AbortIncompleteMultipartUpload");
    return {
      id: childText(rule, "ID") ?? "",
      status: (childText(rule, "Status") ?? "") as LifecycleRule["status"],
      ...parseFilter(rule),
      expiration: exp
        ? {
          days: num(childText(exp, "Days")),
          date: childText(exp, "Date") || undefined,
          expiredObjectDeleteMarker: childText(exp, "ExpiredObjectDeleteMarker") === "true" || undefined,
        }
        : undefined,
      transition: tr
        ? {
          days: num(childText(tr, "Days")),
          date: childText(tr, "Date") || undefined,
          storageClass: childText(tr, "StorageClass") ?? "",
        }
        : undefined,
      noncurrentExpiration: nce ? noncurrentExpiration(nce) : undefined,
      noncurrentTransition: nct
        ? {
          noncurrentDays: num(childText(nct, "NoncurrentDays")) ?? 0,
          storageClass: childText(nct, "StorageClass") ?? "",
        }
        : undefined,
      abortIncompleteMultipartUploadDays: num(childText(abort, "DaysAfterInitiation")),
    };
  });
}

/** Where a rule says what it applies to: a Filter, or (as sent) a Prefix beside an optional Filter. */
function ruleScopeXml(r: LifecycleRule): XmlObject {
  const size = { greater: r.sizeGreaterThan, less: r.sizeLessThan };
  if (!r.prefixOutsideFilter) return { Filter: filterXml(r.prefix, r.tags, size) };
  const filter = filterXml(undefined, r.tags, size);
  return { Prefix: r.prefix ?? "", Filter: Object.keys(filter).length ? filter : undefined };
}

export function lifecycleXml(rules: LifecycleRule[]): string {
  return buildXml("LifecycleConfiguration", {
    Rule: rules.map((r) => ({
      ID: r.id,
      Status: r.status,
      ...ruleScopeXml(r),
      Expiration: r.expiration
        ? {
          Days: r.expiration.days,
          Date: r.expiration.date,
          ExpiredObjectDeleteMarker: r.expiration.expiredObjectDeleteMarker ? "true" : undefined,
        }
        : undefined,
      Transition: r.transition
        ? { Days: r.transition.days, Date: r.transition.date, StorageClass: r.transition.storageClass }
        : undefined,
      NoncurrentVersionExpiration: r.noncurrentExpiration
        ? {
          NoncurrentDays: r.noncurrentExpiration.noncurrentDays,
          NewerNoncurrentVersions: r.noncurrentExpiration.newerNoncurrentVersions,
        }
        : undefined,
      NoncurrentVersionTransition: r.noncurrentTransition
        ? {
          NoncurrentDays: r.noncurrentTransition.noncurrentDays,
          StorageClass: r.noncurrentTransition.storageClass,
        }
        : undefined,
      AbortIncompleteMultipartUpload: r.abortIncompleteMultipartUploadDays !== undefined
        ? { DaysAfterInitiation: r.abortIncompleteMultipartUploadDays }
        : undefined,
    })),
  });
}

/** Lifecycle rules ([] when none configured). */
export async function getBucketLifecycle(client: S3Client, bucket: string): Promise<LifecycleRule[]> {
  try {
    return parseLifecycleXml(await client.text({ method: "GET", bucket, query: { lifecycle: "" } }));
  } catch (error) {
    if (isNotConfigured(error)) return [];
    throw error;
  }
}

/** Replaces the lifecycle configuration; an empty list deletes it. */
export async function putBucketLifecycle(
  client: S3Client,
  bucket: string,
  rules: LifecycleRule[],
): Promise<void> {
  if (rules.length === 0) {
    await client.empty({ method: "DELETE", bucket, query: { lifecycle: "" } });
    return;
  }
  const body = lifecycleXml(rules);
  await client.empty({
    method: "PUT",
    bucket,
    query: { lifecycle: "" },
    body,
    headers: { "content-md5": await md5Base64(body) },
  });
}
