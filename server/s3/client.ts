/**
 * The storage client: one place that builds URLs (path-style), signs with SigV4, sends, and turns error
 * answers into S3Error. The console uses it for a remote MinIO and for the embedded server alike.
 */
import { parseErrorResponse, S3Error } from "./errors.ts";
import { sendWithLength } from "./stream_upload.ts";
import {
  chunkedLength,
  type Credentials,
  EMPTY_SHA256,
  presignUrl,
  sha256Hex,
  signedChunkStream,
  signHeaders,
  STREAM_CHUNK_SIZE,
  STREAMING_PAYLOAD,
  uriEncode,
} from "./sigv4.ts";

export interface S3ClientOptions {
  /** Origin such as http://127.0.0.1:9000. */
  endpoint: string;
  /** Region to sign S3 and STS calls with; MinIO accepts any when it has none configured. */
  region?: string;
  credentials: Credentials;
  fetch?: typeof fetch;
}

export type QueryInput = Record<string, string | number | boolean | undefined | null>;

export interface RequestSpec {
  method: string;
  bucket?: string;
  key?: string;
  /** Full path under the endpoint, for admin (`/minio/admin/v3/...`) and STS (`/`) calls. */
  path?: string;
  query?: QueryInput;
  headers?: Record<string, string>;
  body?: Uint8Array | string | ReadableStream<Uint8Array>;
  /** Required with a stream body: the number of data bytes. */
  contentLength?: number;
  /** "s3" (default; also admin) or "sts". */
  service?: "s3" | "sts";
  /** Sign with this region instead of the client's ("" for admin, as madmin does). */
  region?: string;
  /** Statuses that count as success besides 2xx (e.g. 404 for existence checks). */
  allow?: number[];
  signal?: AbortSignal;
  /** Leave out X-Amz-Content-Sha256 (STS; minio-protocol §1.11 vector F). */
  omitContentSha?: boolean;
}

/** Encodes an object key for the path: every byte except unreserved characters and "/". */
export const encodeKey = (key: string) => uriEncode(key, true);

export class S3Client {
  readonly endpoint: string;
  readonly region: string;
  readonly credentials: Credentials;
  readonly #fetch: typeof fetch;

  constructor(options: S3ClientOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, "");
    this.region = options.region || "us-east-1";
    this.credentials = options.credentials;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** The same server with other credentials (e.g. a session's temporary keys). */
  withCredentials(credentials: Credentials): S3Client {
    return new S3Client({ endpoint: this.endpoint, region: this.region, credentials, fetch: this.#fetch });
  }

  url(spec: Pick<RequestSpec, "bucket" | "key" | "path" | "query">): URL {
    if (spec.key !== undefined && spec.key.split("/").some((part) => part === "." || part === "..")) {
      // URLs normalise dot segments away, so such a key would address another object; S3 servers refuse them.
      throw new S3Error("XMinioInvalidObjectName", `Object name ${JSON.stringify(spec.key)} has a "." or ".." path component`, 400);
    }
    let path = spec.path ?? "/";
    if (spec.bucket) path = `/${encodeURIComponent(spec.bucket)}${spec.key !== undefined ? `/${encodeKey(spec.key)}` : ""}`;
    const url = new URL(this.endpoint + path);
    const parts: string[] = [];
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v === undefined || v === null) continue;
      parts.push(v === "" ? `${uriEncode(k)}=` : `${uriEncode(k)}=${uriEncode(String(v))}`);
    }
    url.search = parts.join("&");
    return url;
  }

  /** Sends a signed request; resolves with the response for 2xx (and `allow`), rejects with S3Error otherwise. */
  async send(spec: RequestSpec): Promise<Response> {
    const url = this.url(spec);
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    let body: BodyInit | undefined;
    let payloadHash = EMPTY_SHA256;
    const isStream = spec.body instanceof ReadableStream;
    if (typeof spec.body === "string" || spec.body instanceof Uint8Array) {
      const bytes = typeof spec.body === "string" ? new TextEncoder().encode(spec.body) : spec.body;
      payloadHash = await sha256Hex(bytes);
      body = bytes as Uint8Array<ArrayBuffer>;
      headers["content-length"] = String(bytes.length);
    } else if (isStream) {
      if (spec.contentLength === undefined) throw new TypeError("a stream body needs contentLength");
      // Streams are signed chunk by chunk (minio-protocol §1.5); the data length travels in
      // x-amz-decoded-content-length and the encoded length in an unsigned Content-Length.
      payloadHash = STREAMING_PAYLOAD;
      headers["content-encoding"] = headers["content-encoding"] ? `aws-chunked,${headers["content-encoding"]}` : "aws-chunked";
      headers["x-amz-decoded-content-length"] = String(spec.contentLength);
    }
    const signed = await signHeaders({
      method: spec.method,
      url,
      headers,
      payloadHash,
      credentials: this.credentials,
      region: spec.region ?? this.region,
      service: spec.service ?? "s3",
      sendContentSha: !spec.omitContentSha,
    });
    const res = isStream
      ? await sendWithLength(url, {
        method: spec.method,
        headers: signed.headers,
        body: signedChunkStream(spec.body as ReadableStream<Uint8Array>, { signingKey: signed.signingKey, amzDate: signed.amzDate, scope: signed.scope, seedSignature: signed.signature }),
        length: chunkedLength(spec.contentLength!, STREAM_CHUNK_SIZE),
        signal: spec.signal,
      })
      : await this.#fetch(url, { method: spec.method, headers: signed.headers, body, signal: spec.signal, redirect: "manual" });
    if (res.ok || spec.allow?.includes(res.status)) return res;
    throw await parseErrorResponse(res);
  }

  /** Sends and returns the body as text (cancelled cleanly on error). */
  async text(spec: RequestSpec): Promise<string> {
    return await (await this.send(spec)).text();
  }

  /** Sends and discards the body. */
  async empty(spec: RequestSpec): Promise<Response> {
    const res = await this.send(spec);
    await res.body?.cancel();
    return res;
  }

  /** Presigned URL for GET/PUT of an object (≤ 7 days). */
  presign(method: "GET" | "PUT", bucket: string, key: string, expiresSeconds: number, query: QueryInput = {}): Promise<URL> {
    return presignUrl({ method, url: this.url({ bucket, key, query }), credentials: this.credentials, region: this.region, expiresSeconds });
  }
}
