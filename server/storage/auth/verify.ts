/**
 * Who sent a request, proven by SigV4 (minio-protocol §1.10): header signatures, presigned URLs, streaming
 * chunk signatures; clock skew, expiry, session tokens and disabled keys; anonymous when unsigned.
 */
import {
  ALGORITHM,
  canonicalRequest,
  constantTimeEqual,
  EMPTY_SHA256,
  MAX_PRESIGN_SECONDS,
  queryPairs,
  signatureOf,
  signingKey,
  STREAMING_PAYLOAD,
  STREAMING_PAYLOAD_TRAILER,
  STREAMING_UNSIGNED_TRAILER,
  stringToSign,
  UNSIGNED_PAYLOAD,
} from "../../lib/s3/sigv4.ts";
import { rawUtf8HeaderText } from "../../lib/s3/header_text.ts";
import type { IdentityAuthority } from "../core/contracts.ts";
import { requestBody } from "../fs/pieces.ts";
import { decodeChunked, type Trailer, verifyDigests } from "./body.ts";
import { type Claim, claimOf, type SignedHeader } from "./claim.ts";
import { checkCredential, checkRegion, parseCredential } from "./scope.ts";
import { authenticateV2 } from "./sigv2.ts";
import { StoreError } from "../core/errors.ts";
import type { Authenticated } from "./authenticated.ts";

const MAX_SKEW_MS = 15 * 60_000;

/** The trailer a request announces in X-Amz-Trailer (one name per value, comma-separated). */
function announcedTrailer(request: Request): Trailer {
  const names = (request.headers.get("x-amz-trailer") ?? "").split(",").map((n) => n.trim().toLowerCase())
    .filter((n) => n !== "");
  return { announced: names, values: {} };
}

const denied = (code: string, message: string, status = 403) => new StoreError(code, message, status);

function parseAmzDate(text: string | null): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? "");
  if (!m) return null;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Values of the signed headers, rebuilt as MinIO does (extractSignedHeaders). */
function signedHeaderValues(request: Request, url: URL, names: string[]): Record<string, string> {
  if (!names.includes("host")) {
    throw denied("AccessDenied", "There were headers present in the request which were not signed", 400);
  }
  const out: Record<string, string> = {};
  for (const name of names) {
    const header = request.headers.get(name);
    // The canonical request is hashed as UTF-8, and the client hashed the raw bytes it sent: raw UTF-8 in a
    // value (minio-go sends metadata so) is read back as its text so both hashes cover the same bytes.
    const value = header !== null ? rawUtf8HeaderText(header) : url.searchParams.get(name);
    if (value !== null) out[name] = value;
    else if (name === "host") out[name] = url.host;
    else if (name === "expect") out[name] = "100-continue";
    else throw denied("AccessDenied", "There were headers present in the request which were not signed", 400);
  }
  return out;
}

function decodedPath(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    throw denied("InvalidURI", "Couldn't parse the specified URI.", 400);
  }
}

export interface AuthOptions {
  service: string;
  now?: number;
  bodyHash?: string;
  region?: string;
  /** The bucket a virtual-host-style request names in its Host (V2 signs it as part of the resource). */
  virtualBucket?: string;
}

/**
 * Authenticates a request for `service` ("s3" or "sts"); throws StoreError with S3's code and status. `claim`
 * is the request's claim when the caller has read it already (the guess throttle has).
 */
export async function authenticate(
  request: Request,
  url: URL,
  authority: IdentityAuthority,
  options: AuthOptions,
  claim: Claim = claimOf(request, url),
): Promise<Authenticated> {
  const now = options.now ?? Date.now();
  // Signature Version 2 (header or presigned URL) has a module of its own; MinIO checks for it first.
  if (claim.kind === "v2") {
    if (options.service !== "s3") throw denied("AccessDenied", "Unsupported Authorization type", 400);
    return authenticateV2(request, url, authority, { now, virtualBucket: options.virtualBucket });
  }
  if (claim.kind === "header") return await headerAuth(request, url, authority, claim.header, options, now);
  if (claim.kind === "presigned") return await presignedAuth(request, url, authority, now, options.region);
  return anonymousBody(request);
}

function anonymousBody(request: Request): Authenticated {
  const body = requestBody(request);
  const md5 = request.headers.get("content-md5") ?? undefined;
  const mode = request.headers.get("x-amz-content-sha256");
  const length = request.headers.get("content-length");
  if (mode === STREAMING_UNSIGNED_TRAILER && body) {
    const decoded = Number(request.headers.get("x-amz-decoded-content-length"));
    if (!Number.isFinite(decoded)) {
      throw denied("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
    }
    const trailer = announcedTrailer(request);
    return {
      credential: null,
      authType: "anonymous",
      body: decodeChunked(body, { trailer, decodedLength: decoded }),
      contentLength: decoded,
      trailer,
    };
  }
  return {
    credential: null,
    authType: "anonymous",
    body: body && md5 ? verifyDigests(body, { md5Base64: md5 }) : body,
    contentLength: length ? Number(length) : undefined,
  };
}

async function headerAuth(
  request: Request,
  url: URL,
  authority: IdentityAuthority,
  header: SignedHeader,
  options: AuthOptions,
  now: number,
): Promise<Authenticated> {
  const { service, bodyHash, region } = options;
  const amzDateText = request.headers.get("x-amz-date");
  const date = parseAmzDate(amzDateText);
  if (!amzDateText) {
    throw denied("AccessDenied", "AWS authentication requires a valid Date or x-amz-date header", 400);
  }
  if (!date) {
    throw denied(
      "MalformedDate",
      "Invalid date format header, expected to be in ISO8601, RFC1123 or RFC1123Z time format.",
      400,
    );
  }
  if (Math.abs(now - date.getTime()) > MAX_SKEW_MS) {
    throw denied(
      "RequestTimeTooSkewed",
      "The difference between the request time and the server's time is too large.",
    );
  }
  const scope = header.credential;
  if (scope.date !== amzDateText!.slice(0, 8)) {
    throw denied(
      "AuthorizationHeaderMalformed",
      "The authorization header is malformed; the date in the credential scope does not match the request date.",
      400,
    );
  }
  if (scope.service !== service) {
    throw denied(
      "AuthorizationHeaderMalformed",
      `The authorization header is malformed; expected service '${service}'.`,
      400,
    );
  }
  checkRegion(scope.region, region);
  const cred = checkCredential(authority, scope.accessKey, request.headers.get("x-amz-security-token"), now);
  const mode = request.headers.get("x-amz-content-sha256") ?? EMPTY_SHA256;
  const streaming = request.method === "PUT" &&
    (mode === STREAMING_PAYLOAD || mode === STREAMING_PAYLOAD_TRAILER || mode === STREAMING_UNSIGNED_TRAILER);
  if (!streaming && mode !== UNSIGNED_PAYLOAD && !/^[0-9a-f]{64}$/.test(mode)) {
    throw denied(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
      400,
    );
  }
  const names = header.signedHeaders;
  const canonical = canonicalRequest({
    method: request.method,
    path: decodedPath(url),
    query: queryPairs(url),
    headers: signedHeaderValues(request, url, names),
    // STS requests may omit X-Amz-Content-Sha256; the signature then covers the body's real hash (vector F).
    payloadHash: bodyHash && !request.headers.has("x-amz-content-sha256") ? bodyHash : mode,
  });
  const key = await signingKey(cred.secretKey, amzDateText!, scope.region, scope.service);
  const expected = await signatureOf(key, await stringToSign(amzDateText!, scope.scope, canonical));
  if (!constantTimeEqual(expected, header.signature)) {
    throw denied(
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    );
  }
  const md5 = request.headers.get("content-md5") ?? undefined;
  const raw = requestBody(request);
  const age = Math.round((now - date.getTime()) / 1000);
  if (streaming) {
    const decodedText = request.headers.get("x-amz-decoded-content-length");
    if (!decodedText || !/^\d+$/.test(decodedText)) {
      throw denied("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
    }
    const decodedLength = Number(decodedText);
    const signing = mode === STREAMING_UNSIGNED_TRAILER
      ? undefined
      : { signingKey: key, amzDate: amzDateText!, scope: scope.scope, seedSignature: expected };
    const trailer = mode !== STREAMING_PAYLOAD ? announcedTrailer(request) : undefined;
    let body = raw ? decodeChunked(raw, { signing, trailer, decodedLength }) : null;
    if (body && md5) body = verifyDigests(body, { md5Base64: md5 });
    return {
      credential: cred,
      authType: "streaming",
      body,
      contentLength: decodedLength,
      signatureAgeSeconds: age,
      trailer,
    };
  }
  const verify = {
    sha256Hex: /^[0-9a-f]{64}$/.test(mode) && mode !== EMPTY_SHA256 ? mode : undefined,
    md5Base64: md5,
  };
  const length = request.headers.get("content-length");
  // The empty-body hash over a non-empty body is not checked (MinIO's non-strict behaviour, §1.4).
  let body = raw;
  if (body && (verify.sha256Hex || verify.md5Base64)) body = verifyDigests(body, verify);
  return {
    credential: cred,
    authType: "header",
    body,
    contentLength: length ? Number(length) : undefined,
    signatureAgeSeconds: age,
  };
}

async function presignedAuth(
  request: Request,
  url: URL,
  authority: IdentityAuthority,
  now: number,
  region?: string,
): Promise<Authenticated> {
  const q = url.searchParams;
  for (
    const name of [
      "X-Amz-Algorithm",
      "X-Amz-Credential",
      "X-Amz-Date",
      "X-Amz-Expires",
      "X-Amz-SignedHeaders",
      "X-Amz-Signature",
    ]
  ) {
    if (!q.get(name)) {
      throw denied("AuthorizationQueryParametersError", `Query-string authentication requires ${name}.`, 400);
    }
  }
  if (q.get("X-Amz-Algorithm") !== ALGORITHM) {
    throw denied(
      "AuthorizationQueryParametersError",
      'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
      400,
    );
  }
  const expiresText = q.get("X-Amz-Expires")!;
  if (!/^-?\d+$/.test(expiresText)) {
    throw denied("AuthorizationQueryParametersError", "X-Amz-Expires should be a number", 400);
  }
  const expires = Number(expiresText);
  if (expires < 0) {
    throw denied("AuthorizationQueryParametersError", "X-Amz-Expires must be non-negative", 400);
  }
  if (expires > MAX_PRESIGN_SECONDS) {
    throw denied(
      "AuthorizationQueryParametersError",
      "X-Amz-Expires must be less than a week (in seconds) that is 604800",
      400,
    );
  }
  const date = parseAmzDate(q.get("X-Amz-Date"));
  if (!date) {
    throw denied(
      "MalformedDate",
      "Invalid date format header, expected to be in ISO8601, RFC1123 or RFC1123Z time format.",
      400,
    );
  }
  if (date.getTime() - now > MAX_SKEW_MS) throw denied("AccessDenied", "Request is not valid yet");
  if (now - date.getTime() > expires * 1000) throw denied("AccessDenied", "Request has expired");
  const scope = parseCredential(q.get("X-Amz-Credential")!);
  if (scope.service !== "s3") {
    throw denied("AuthorizationQueryParametersError", "Presigned requests must use service s3", 400);
  }
  checkRegion(scope.region, region);
  const cred = checkCredential(authority, scope.accessKey, q.get("X-Amz-Security-Token"), now);
  const names = q.get("X-Amz-SignedHeaders")!.toLowerCase().split(";");
  const canonical = canonicalRequest({
    method: request.method,
    path: decodedPath(url),
    query: queryPairs(url, ["X-Amz-Signature"]),
    headers: signedHeaderValues(request, url, names),
    payloadHash: q.get("X-Amz-Content-Sha256") ?? UNSIGNED_PAYLOAD,
  });
  const key = await signingKey(cred.secretKey, q.get("X-Amz-Date")!, scope.region, scope.service);
  const expected = await signatureOf(key, await stringToSign(q.get("X-Amz-Date")!, scope.scope, canonical));
  if (!constantTimeEqual(expected, q.get("X-Amz-Signature")!)) {
    throw denied(
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    );
  }
  const body = requestBody(request);
  const length = request.headers.get("content-length");
  const md5 = request.headers.get("content-md5") ?? undefined;
  return {
    credential: cred,
    authType: "presigned",
    body: body && md5 ? verifyDigests(body, { md5Base64: md5 }) : body,
    contentLength: length ? Number(length) : undefined,
    signatureAgeSeconds: Math.round((now - date.getTime()) / 1000),
  };
}
