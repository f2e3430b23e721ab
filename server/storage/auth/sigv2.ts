/**
 * AWS Signature Version 2, which MinIO still accepts beside V4: the `Authorization: AWS <key>:<signature>`
 * header, presigned URLs (`AWSAccessKeyId`, `Signature`, `Expires`) and POST policies signed with HMAC-SHA1
 * (MinIO's cmd/signature-v2.go). The signature covers the method, Content-MD5, Content-Type, the date (or
 * the expiry), the x-amz-* headers and the resource: the path as sent plus MinIO's sub-resource list.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { rawRequestTarget } from "../../lib/http/listener.ts";
import type { Credential, IdentityAuthority } from "../core/contracts.ts";
import { requestBody } from "../fs/pieces.ts";
import { verifyDigests } from "./body.ts";
import { checkCredential } from "./scope.ts";
import { StoreError } from "../core/errors.ts";
import type { Authenticated } from "./authenticated.ts";

const MAX_SKEW_MS = 15 * 60_000;

/** The sub-resources a V2 signature covers, in the order it lists them. */
const RESOURCES = [
  "acl",
  "cors",
  "delete",
  "encryption",
  "legal-hold",
  "lifecycle",
  "location",
  "logging",
  "notification",
  "partNumber",
  "policy",
  "requestPayment",
  "response-cache-control",
  "response-content-disposition",
  "response-content-encoding",
  "response-content-language",
  "response-content-type",
  "response-expires",
  "retention",
  "select",
  "select-type",
  "tagging",
  "torrent",
  "uploadId",
  "uploads",
  "versionId",
  "versioning",
  "versions",
  "website",
];

const denied = (code: string, message: string, status: number) => new StoreError(code, message, status);
const signatureMismatch = () =>
  denied(
    "SignatureDoesNotMatch",
    "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    403,
  );
const invalidQuery = () =>
  denied(
    "AuthorizationQueryParametersError",
    "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.",
    400,
  );

/** Whether a request is signed with V2: an `AWS ` Authorization header, or a V2 presigned URL. */
export function isSignatureV2(request: Request, url: URL): boolean {
  return (request.headers.get("authorization") ?? "").startsWith("AWS ") ||
    url.searchParams.has("AWSAccessKeyId");
}

/** Base64 HMAC-SHA1 of the string to sign. */
const hmacSha1 = (secret: string, text: string) => createHmac("sha1", secret).update(text).digest("base64");

/** Compares base64 signatures by their bytes (one value has many encodings), in constant time. */
function sameSignature(given: string, expected: string): boolean {
  let a: Uint8Array, b: Uint8Array;
  try {
    a = Uint8Array.fromBase64(given.trim());
    b = Uint8Array.fromBase64(expected);
  } catch {
    return false;
  }
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A query string's pieces, each unescaped as Go's QueryUnescape does ("+" is a space). */
function unescapedQueries(rawQuery: string): string[] {
  if (rawQuery === "") return [];
  try {
    return rawQuery.split("&").map((piece) => decodeURIComponent(piece.replace(/\+/g, " ")));
  } catch {
    throw invalidQuery();
  }
}

/** The resource signed: the path as sent (`/bucket` first for a virtual-host request) and its sub-resources. */
function canonicalResource(path: string, queries: string[]): string {
  const values = new Map<string, string>();
  for (const piece of queries) {
    const eq = piece.indexOf("=");
    values.set(eq < 0 ? piece : piece.slice(0, eq), eq < 0 ? "" : piece.slice(eq + 1));
  }
  const listed = RESOURCES.filter((name) => values.has(name))
    .map((name) => (values.get(name) === "" ? name : `${name}=${values.get(name)}`));
  return listed.length ? `${path}?${listed.join("&")}` : path;
}

/**
 * The paths a signature may cover: the path as sent (MinIO), and for a bucket without a key also `/bucket/`,
 * AWS's form, which boto3 signs for bucket requests sent to `/bucket`.
 */
function resourcePaths(path: string): string[] {
  return /^\/[^/]+$/.test(path) ? [path, `${path}/`] : [path];
}

/** The x-amz-* headers, lower-cased and sorted, one `name:value` line each. */
function canonicalAmzHeaders(headers: Headers): string {
  const lines: string[] = [];
  headers.forEach((value, name) => {
    if (name.startsWith("x-amz-")) lines.push(`${name}:${value}`);
  });
  return lines.sort().map((line) => `${line}\n`).join("");
}

function stringToSign(request: Request, date: string, resource: string): string {
  const h = request.headers;
  const md5 = h.get("content-md5") ?? "", type = h.get("content-type") ?? "";
  return `${request.method}\n${md5}\n${type}\n${date}\n${canonicalAmzHeaders(h)}${resource}`;
}

/** The raw path and query as sent, with `/bucket` first for a virtual-host-style request. */
function rawResource(request: Request, virtualBucket?: string): { path: string; query: string } {
  const target = rawRequestTarget(request);
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  return { path: virtualBucket ? `/${virtualBucket}${path}` : path, query: q < 0 ? "" : target.slice(q + 1) };
}

function bodyOf(request: Request, credential: Credential, authType: "header" | "presigned"): Authenticated {
  const body = requestBody(request);
  const md5 = request.headers.get("content-md5") ?? undefined;
  const length = request.headers.get("content-length");
  return {
    credential,
    authType,
    signatureVersion: "AWS",
    body: body && md5 ? verifyDigests(body, { md5Base64: md5 }) : body,
    contentLength: length ? Number(length) : undefined,
  };
}

/** x-amz-date or Date, in one of MinIO's formats, within 15 minutes of now (header-signed requests). */
function checkDate(headers: Headers, now: number): void {
  const text = headers.get("x-amz-date") || headers.get("date");
  if (!text) {
    throw denied("AccessDenied", "AWS authentication requires a valid Date or x-amz-date header", 403);
  }
  const iso = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  const time = iso
    ? Date.UTC(+iso[1], +iso[2] - 1, +iso[3], +iso[4], +iso[5], +iso[6])
    : /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} ([A-Z]{3}|[+-]\d{4})$/.test(text)
    ? Date.parse(text)
    : NaN;
  if (Number.isNaN(time)) {
    throw denied(
      "MalformedDate",
      "Invalid date format header, expected to be in ISO8601, RFC1123 or RFC1123Z time format.",
      400,
    );
  }
  if (Math.abs(now - time) > MAX_SKEW_MS) {
    throw denied(
      "RequestTimeTooSkewed",
      "The difference between the request time and the server's time is too large.",
      403,
    );
  }
}

/** Authenticates a V2-signed request (header or presigned URL); throws StoreError with MinIO's answers. */
export function authenticateV2(
  request: Request,
  url: URL,
  authority: IdentityAuthority,
  options: { now: number; virtualBucket?: string },
): Authenticated {
  const { path, query } = rawResource(request, options.virtualBucket);
  const authorization = request.headers.get("authorization") ?? "";
  if (authorization.startsWith("AWS ")) {
    checkDate(request.headers, options.now);
    const fields = authorization.split(" ");
    const pair = fields.length === 2 ? fields[1].trim().split(":") : [];
    if (pair.length !== 2) throw denied("MissingFields", "Missing fields in request.", 400);
    const credential = checkCredential(
      authority,
      pair[0],
      request.headers.get("x-amz-security-token"),
      options.now,
    );
    const date = request.headers.get("date") ?? "";
    const queries = unescapedQueries(query);
    const matches = (resourcePath: string) =>
      sameSignature(
        pair[1],
        hmacSha1(credential.secretKey, stringToSign(request, date, canonicalResource(resourcePath, queries))),
      );
    if (!resourcePaths(path).some(matches)) throw signatureMismatch();
    return bodyOf(request, credential, "header");
  }
  const pieces = unescapedQueries(query);
  let accessKey = "", signature = "", expires = "";
  const signed: string[] = [];
  for (const piece of pieces) {
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq), value = eq < 0 ? "" : piece.slice(eq + 1);
    if (name === "AWSAccessKeyId") accessKey = value;
    else if (name === "Signature") signature = value;
    else if (name === "Expires") expires = value;
    else signed.push(piece);
  }
  if (!accessKey || !signature || !expires) throw invalidQuery();
  const token = request.headers.get("x-amz-security-token") ?? url.searchParams.get("X-Amz-Security-Token");
  const credential = checkCredential(authority, accessKey, token, options.now);
  if (!/^\d+$/.test(expires)) {
    throw denied("AuthorizationQueryParametersError", "X-Amz-Expires should be a number", 400);
  }
  if (Number(expires) * 1000 < options.now) throw denied("AccessDenied", "Request has expired", 403);
  const matches = (resourcePath: string) =>
    sameSignature(
      signature,
      hmacSha1(credential.secretKey, stringToSign(request, expires, canonicalResource(resourcePath, signed))),
    );
  if (!resourcePaths(path).some(matches)) throw signatureMismatch();
  return bodyOf(request, credential, "presigned");
}

/**
 * A V2 POST policy: `Signature` is the base64 HMAC-SHA1 of the base64 policy with the secret of
 * `AWSAccessKeyId` (field names are lower-cased by the form reader).
 */
export function policyCredentialV2(
  fields: Map<string, string>,
  authority: IdentityAuthority,
  now: number,
): Credential {
  const credential = checkCredential(
    authority,
    fields.get("awsaccesskeyid") ?? "",
    fields.get("x-amz-security-token") ?? null,
    now,
  );
  if (
    !sameSignature(fields.get("signature") ?? "", hmacSha1(credential.secretKey, fields.get("policy") ?? ""))
  ) {
    throw signatureMismatch();
  }
  return credential;
}
