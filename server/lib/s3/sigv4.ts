/**
 * AWS Signature Version 4 as MinIO accepts it (minio-protocol §1). The primitives serve both sides: the client
 * signs with them, the embedded server rebuilds the same canonical request to verify.
 */

export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
export const STREAMING_PAYLOAD = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
export const STREAMING_PAYLOAD_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
export const STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
export const ALGORITHM = "AWS4-HMAC-SHA256";
/** Presigned URLs may live at most 7 days (minio-protocol §1.6). */
export const MAX_PRESIGN_SECONDS = 604800;

export interface Credentials {
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
}

import type { Buffer } from "node:buffer";
import { createHash } from "node:crypto";

const encoder = new TextEncoder();
const CRLF = new Uint8Array([13, 10]);

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(
    bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

type Bytes = Uint8Array<ArrayBuffer>;
const asBytes = (data: string | Uint8Array): Bytes =>
  (typeof data === "string" ? encoder.encode(data) : data) as Bytes;

// node:crypto rather than WebCrypto: synchronous hashing is several times faster per call, which matters
// for per-chunk signatures of streamed uploads and for every request the embedded server verifies.

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(asBytes(data)).digest("hex");
}

/** SHA-256's block size: HMAC pads its key to one block. */
const BLOCK_BYTES = 64;
const keyPads = new WeakMap<Uint8Array, { inner: Bytes; outer: Bytes }>();

/** The key XORed into HMAC's inner and outer pads (RFC 2104 §2), made once per key object. */
function padsOf(key: Uint8Array): { inner: Bytes; outer: Bytes } {
  let pads = keyPads.get(key);
  if (!pads) {
    const block = new Uint8Array(BLOCK_BYTES);
    block.set(key.length > BLOCK_BYTES ? createHash("sha256").update(key).digest() : key);
    pads = { inner: block.map((b) => b ^ 0x36), outer: block.map((b) => b ^ 0x5c) };
    keyPads.set(key, pads);
  }
  return pads;
}

/**
 * HMAC-SHA256 as two SHA-256 hashes over the key's pads (RFC 2104). Deno's createHmac builds a stream object
 * per call and costs twice these two hashes; every storage call signs once on each side.
 */
function hmacDigest(key: Uint8Array, data: string | Uint8Array): Buffer {
  const { inner, outer } = padsOf(key);
  const innerHash = createHash("sha256").update(inner).update(data).digest();
  return createHash("sha256").update(outer).update(innerHash).digest();
}

export function hmac(key: Uint8Array, data: string | Uint8Array): Bytes {
  return new Uint8Array(hmacDigest(key, data)) as Bytes;
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]*$/;
const UNRESERVED_OR_SLASH = /^[A-Za-z0-9\-_.~/]*$/;
/** What encodeURIComponent leaves as it is but RFC 3986 reserves. */
const SUB_DELIMS_KEPT = /[!'()*]/g;

/**
 * RFC 3986 encoding of every byte except unreserved characters; `keepSlash` for the canonical URI. Both sides
 * of every storage call run it on the path and each query parameter: most are plain already, and the rest go
 * through the engine's own encoder; a byte at a time is kept for text it refuses (a lone surrogate).
 */
export function uriEncode(text: string, keepSlash = false): string {
  if ((keepSlash ? UNRESERVED_OR_SLASH : UNRESERVED).test(text)) return text;
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    return uriEncodeBytes(text, keepSlash);
  }
  encoded = encoded.replace(SUB_DELIMS_KEPT, (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase());
  return keepSlash ? encoded.replaceAll("%2F", "/") : encoded;
}

/** uriEncode over the UTF-8 bytes, as a well-formed string would have them (a lone surrogate as U+FFFD). */
export function uriEncodeBytes(text: string, keepSlash: boolean): string {
  let out = "";
  for (const byte of encoder.encode(text)) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch) || (keepSlash && ch === "/")) out += ch;
    else out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** Canonical URI from the *decoded* path, encoded once (§1.2 item 2). */
export function canonicalUri(decodedPath: string): string {
  return decodedPath === "" ? "/" : uriEncode(decodedPath, true);
}

/** Canonical query from decoded pairs, sorted by encoded key then value (§1.2 item 3). */
export function canonicalQuery(pairs: [string, string][]): string {
  return pairs
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/** Decoded query pairs of a URL, excluding `X-Amz-Signature` (presigned verification). */
export function queryPairs(url: URL, exclude: string[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [k, v] of url.searchParams) if (!exclude.includes(k)) pairs.push([k, v]);
  return pairs;
}

const trimValue = (value: string) => value.trim().replace(/\s+/g, " ");

/** Canonical headers block (each line ends with "\n") and the signed-headers list, names lowercased and sorted. */
export function canonicalHeaders(headers: Record<string, string>): { block: string; signed: string } {
  const names = Object.keys(headers).map((n) => n.toLowerCase()).sort();
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return {
    block: names.map((n) => `${n}:${trimValue(lower[n])}\n`).join(""),
    signed: names.join(";"),
  };
}

export interface CanonicalInput {
  method: string;
  /** Decoded path, e.g. "/bucket/a b.txt". */
  path: string;
  query: [string, string][];
  /** The signed headers with their values. */
  headers: Record<string, string>;
  payloadHash: string;
}

export function canonicalRequest(input: CanonicalInput): string {
  const { block, signed } = canonicalHeaders(input.headers);
  return [
    input.method.toUpperCase(),
    canonicalUri(input.path),
    canonicalQuery(input.query),
    block,
    signed,
    input.payloadHash,
  ].join("\n");
}

export const scopeOf = (date: string, region: string, service: string) =>
  `${date.slice(0, 8)}/${region}/${service}/aws4_request`;

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join("\n");
}

const keyCache = new Map<string, Bytes>();

/** kSigning = HMAC chain over date, region (may be empty), service, "aws4_request"; cached per scope. */
export function signingKey(secretKey: string, date: string, region: string, service: string): Bytes {
  const cacheKey = `${secretKey}\u0000${date.slice(0, 8)}\u0000${region}\u0000${service}`;
  const hit = keyCache.get(cacheKey);
  if (hit) return hit;
  const kDate = hmac(encoder.encode("AWS4" + secretKey), date.slice(0, 8));
  const kRegion = hmac(kDate, region);
  const kService = hmac(kRegion, service);
  const key = hmac(kService, "aws4_request");
  if (keyCache.size > 1000) keyCache.clear();
  keyCache.set(cacheKey, key);
  return key;
}

export function signatureOf(key: Uint8Array, toSign: string): string {
  return hmacDigest(key, toSign).toString("hex");
}

/** ISO basic date-time `yyyymmddThhmmssZ`. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

export interface SignOptions {
  method: string;
  url: URL;
  /** Headers to send; `host`, `x-amz-date` and the token are added. All present headers get signed. */
  headers: Record<string, string>;
  payloadHash: string;
  credentials: Credentials;
  region: string;
  service: string;
  date?: Date;
  /** Whether to send X-Amz-Content-Sha256 (STS requests leave it out, vector F). */
  sendContentSha?: boolean;
}

export interface SignedRequest {
  headers: Record<string, string>;
  signature: string;
  scope: string;
  amzDate: string;
  signingKey: Bytes;
}

/** Signs a request with header authentication (§1.3). Returns the full header set to send. */
export async function signHeaders(opts: SignOptions): Promise<SignedRequest> {
  const now = amzDate(opts.date ?? new Date());
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers)) {
    const name = k.toLowerCase();
    if (name === "authorization" || name === "user-agent" || name === "accept-encoding") continue;
    headers[name] = v;
  }
  headers["host"] = opts.url.host;
  headers["x-amz-date"] = now;
  if (opts.sendContentSha !== false) headers["x-amz-content-sha256"] = opts.payloadHash;
  if (opts.credentials.sessionToken) headers["x-amz-security-token"] = opts.credentials.sessionToken;
  const canonical = canonicalRequest({
    method: opts.method,
    path: decodeURIComponent(opts.url.pathname),
    query: queryPairs(opts.url),
    headers,
    payloadHash: opts.payloadHash,
  });
  const scope = scopeOf(now, opts.region, opts.service);
  const key = await signingKey(opts.credentials.secretKey, now, opts.region, opts.service);
  const signature = await signatureOf(key, await stringToSign(now, scope, canonical));
  const signed = canonicalHeaders(headers).signed;
  const out: Record<string, string> = { ...opts.headers, ...headers };
  delete out["host"];
  out["authorization"] =
    `${ALGORITHM} Credential=${opts.credentials.accessKey}/${scope}, SignedHeaders=${signed}, Signature=${signature}`;
  return { headers: out, signature, scope, amzDate: now, signingKey: key };
}

/** Builds a presigned URL (§1.6); `expiresSeconds` must be 1..604800. */
export async function presignUrl(opts: {
  method: string;
  url: URL;
  credentials: Credentials;
  region: string;
  expiresSeconds: number;
  date?: Date;
  service?: string;
}): Promise<URL> {
  if (
    !Number.isInteger(opts.expiresSeconds) || opts.expiresSeconds < 1 ||
    opts.expiresSeconds > MAX_PRESIGN_SECONDS
  ) {
    throw new RangeError(`presigned URLs expire after 1 to ${MAX_PRESIGN_SECONDS} seconds`);
  }
  const now = amzDate(opts.date ?? new Date());
  const service = opts.service ?? "s3";
  const scope = scopeOf(now, opts.region, service);
  const url = new URL(opts.url);
  url.searchParams.set("X-Amz-Algorithm", ALGORITHM);
  url.searchParams.set("X-Amz-Credential", `${opts.credentials.accessKey}/${scope}`);
  url.searchParams.set("X-Amz-Date", now);
  url.searchParams.set("X-Amz-Expires", String(opts.expiresSeconds));
  url.searchParams.set("X-Amz-SignedHeaders", "host");
  if (opts.credentials.sessionToken) {
    url.searchParams.set("X-Amz-Security-Token", opts.credentials.sessionToken);
  }
  const canonical = canonicalRequest({
    method: opts.method,
    path: decodeURIComponent(url.pathname),
    query: queryPairs(url),
    headers: { host: url.host },
    payloadHash: UNSIGNED_PAYLOAD,
  });
  const key = await signingKey(opts.credentials.secretKey, now, opts.region, service);
  const signature = await signatureOf(key, await stringToSign(now, scope, canonical));
  // Rebuild the query in canonical form so the URL's own encoding matches what the server recomputes.
  url.search = canonicalQuery(queryPairs(url)) + `&X-Amz-Signature=${signature}`;
  return url;
}

/** String to sign of one aws-chunked chunk (§1.5). */
export function chunkStringToSign(
  amzDate: string,
  scope: string,
  previousSignature: string,
  chunkHash: string,
): string {
  return ["AWS4-HMAC-SHA256-PAYLOAD", amzDate, scope, previousSignature, EMPTY_SHA256, chunkHash].join("\n");
}

/** String to sign of the signed trailer (§1.5). */
export function trailerStringToSign(
  amzDate: string,
  scope: string,
  previousSignature: string,
  trailerBytes: string,
): string {
  const text = trailerBytes.endsWith("\n") ? trailerBytes : trailerBytes + "\n";
  return ["AWS4-HMAC-SHA256-TRAILER", amzDate, scope, previousSignature, sha256Hex(text)].join("\n");
}

/** Data bytes per signed chunk: far fewer signatures than minio-go's 64 KiB, well under the 16 MiB servers accept. */
export const STREAM_CHUNK_SIZE = 1024 * 1024;

/** Encoded length of an aws-chunked body for `length` data bytes and `chunkSize` chunks. */
export function chunkedLength(length: number, chunkSize: number): number {
  const cost = (n: number) => n.toString(16).length + 17 + 64 + 2 + n + 2;
  const full = Math.floor(length / chunkSize);
  const rest = length % chunkSize;
  return full * cost(chunkSize) + (rest > 0 ? cost(rest) : 0) + cost(0);
}

/**
 * Re-chunks a body into signed aws-chunked form while streaming (no whole-body buffering): every
 * `chunkSize` bytes become one chunk signed over the previous signature, then the final empty chunk.
 */
export function signedChunkStream(
  body: ReadableStream<Uint8Array>,
  opts: { signingKey: Uint8Array; amzDate: string; scope: string; seedSignature: string; chunkSize?: number },
): ReadableStream<Uint8Array> {
  const chunkSize = opts.chunkSize ?? STREAM_CHUNK_SIZE;
  let previous = opts.seedSignature;
  const reader = body.getReader();
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let done = false;
  /** Signs `data` and passes on its chunk: header, data and CRLF as three pieces, so the data is not copied. */
  const frame = (controller: ReadableStreamDefaultController<Uint8Array>, data: Uint8Array): void => {
    const signature = signatureOf(
      opts.signingKey,
      chunkStringToSign(opts.amzDate, opts.scope, previous, sha256Hex(data)),
    );
    previous = signature;
    controller.enqueue(encoder.encode(`${data.length.toString(16)};chunk-signature=${signature}\r\n`));
    if (data.length) controller.enqueue(data);
    controller.enqueue(CRLF);
  };
  /** Takes `size` bytes off the front of the pending list (the first piece itself when it is that size). */
  const take = (size: number): Uint8Array => {
    pendingBytes -= size;
    if (pending[0].length === size) return pending.shift()!;
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const first = pending[0];
      const n = Math.min(first.length, size - at);
      out.set(first.subarray(0, n), at);
      at += n;
      if (n === first.length) pending.shift();
      else pending[0] = first.subarray(n);
    }
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!done && pendingBytes < chunkSize) {
        const { value, done: finished } = await reader.read();
        if (finished) done = true;
        else if (value.length) {
          pending.push(value);
          pendingBytes += value.length;
        }
      }
      if (pendingBytes > 0) return frame(controller, take(Math.min(chunkSize, pendingBytes)));
      frame(controller, new Uint8Array(0));
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
