/**
 * Bucket CORS configuration (AWS PutBucketCors/GetBucketCors/DeleteBucketCors): the XML document and its
 * calls. The embedded server parses with the same functions; community MinIO answers NotImplemented
 * (minio-protocol-2 §10.1) and applies only its global `api cors_allow_origin`.
 */
import type { S3Client } from "../client.ts";
import { parseErrorResponse } from "../errors.ts";
import { md5Base64 } from "../md5.ts";
import { buildXml, children, childText, parseXml, type XmlNode } from "../xml.ts";

export interface CorsRule {
  id?: string;
  allowedOrigins: string[];
  allowedMethods: string[];
  allowedHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds?: number;
}

const texts = (node: XmlNode, name: string) => children(node, name).map((c) => c.text.trim());

/** Parses a CORSConfiguration document (structure only; the server validates values). */
export function parseCorsXml(xml: string): CorsRule[] {
  const root = parseXml(xml);
  if (root.name !== "CORSConfiguration") throw new Error("expected <CORSConfiguration>");
  return children(root, "CORSRule").map((rule) => {
    const maxAge = childText(rule, "MaxAgeSeconds");
    return {
      id: childText(rule, "ID"),
      allowedOrigins: texts(rule, "AllowedOrigin"),
      allowedMethods: texts(rule, "AllowedMethod"),
      allowedHeaders: texts(rule, "AllowedHeader"),
      exposeHeaders: texts(rule, "ExposeHeader"),
      maxAgeSeconds: maxAge === undefined ? undefined : Number(maxAge),
    };
  });
}

export function corsXml(rules: CorsRule[]): string {
  return buildXml("CORSConfiguration", {
    CORSRule: rules.map((r) => ({
      ID: r.id,
      AllowedHeader: r.allowedHeaders,
      AllowedMethod: r.allowedMethods,
      AllowedOrigin: r.allowedOrigins,
      ExposeHeader: r.exposeHeaders,
      MaxAgeSeconds: r.maxAgeSeconds,
    })),
  });
}

/** The bucket's CORS rules; [] when none are configured. */
export async function getBucketCors(client: S3Client, bucket: string): Promise<CorsRule[]> {
  const res = await client.send({ method: "GET", bucket, query: { cors: "" }, allow: [404] });
  const text = await res.text();
  if (res.status === 404) {
    if (/<Code>NoSuchCORSConfiguration<\/Code>/.test(text)) return [];
    throw await parseErrorResponse(new Response(text, { status: 404, headers: res.headers }));
  }
  return parseCorsXml(text);
}

export async function putBucketCors(client: S3Client, bucket: string, rules: CorsRule[]): Promise<void> {
  const body = corsXml(rules);
  await client.empty({
    method: "PUT",
    bucket,
    query: { cors: "" },
    body,
    headers: { "content-md5": await md5Base64(body) },
  });
}

export async function deleteBucketCors(client: S3Client, bucket: string): Promise<void> {
  await client.empty({ method: "DELETE", bucket, query: { cors: "" } });
}
