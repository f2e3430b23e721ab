/**
 * The storage client: one place that builds URLs (path-style), signs with SigV4, sends, and turns error
 * answers into S3Error. The console uses it for a remote MinIO and for the embedded server alike.
 */
import { parseErrorResponse, S3Error } from "./errors.ts";
import { sendWithLength } from "./stream_upload.ts";
import { caCertsOf } from "../http/trusted_cas.ts";
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
  UNSIGNED_PAYLOAD,
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

/**
 * Regions learned from the servers themselves, by endpoint: a server with a region configured refuses
 * signatures for another one and names its own (x-amz-bucket-region, minio-protocol §1.7). Requests then
 * sign with it, so changing a server's region does not lock the console out.
 */
const learnedRegions = new Map<string, string>();

/** The region named by a wrong-region refusal, if that is what the response is. */
function regionHint(res: Response, error: S3Error): string | undefined {
  return res.headers.get("x-amz-bucket-region") ?? /expecting '([^']+)'/.exec(error.message)?.[1] ??
    undefined;
}

/** Query parameters; an array repeats its key (ListenBucketNotification's `events`). */
export type QueryInput = Record<string, string | number | boolean | undefined | null | string[]>;

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
  /**
   * Send a stream body as is with UNSIGNED-PAYLOAD and its Content-Length instead of signed aws-chunked
   * (minio-protocol §1.4): no per-chunk signing, for bytes the console only relays.
   */
  unsignedPayload?: boolean;
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
      throw new S3Error(
        "XMinioInvalidObjectName",
        `Object name ${JSON.stringify(spec.key)} has a "." or ".." path component`,
        400,
      );
    }
    let path = spec.path ?? "/";
    if (spec.bucket) {
      path = `/${encodeURIComponent(spec.bucket)}${spec.key !== undefined ? `/${encodeKey(spec.key)}` : ""}`;
    }
    const url = new URL(this.endpoint + path);
    const parts: string[] = [];
    for (const [k, value] of Object.entries(spec.query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v === undefined || v === null) continue;
        parts.push(v === "" ? `${uriEncode(k)}=` : `${uriEncode(k)}=${uriEncode(String(v))}`);
      }
    }
    url.search = parts.join("&");
    return url;
  }

  /** The region requests are signed with: what the server said it uses, else the configured one. */
  get signingRegion(): string {
    return learnedRegions.get(this.endpoint) ?? this.region;
  }

  /**
   * Sends a signed request; resolves with the response for 2xx (and `allow`), rejects with S3Error otherwise.
   * A refusal naming another region is retried once signed for it (not for streamed bodies, which are gone).
   */
  async send(spec: RequestSpec): Promise<Response> {
    try {
      return await this.#sendOnce(spec);
    } catch (error) {
      if (!(error instanceof RegionRetry)) throw error;
      if (spec.body instanceof ReadableStream) throw error.cause;
      // No usable region in the refusal (MinIO's message always says 'us-east-1'): ask the bucket where it is,
      // which works signed for any region (minio-protocol §1.7), as minio-go does.
      const named = error.hint !== error.signedWith ? error.hint : undefined;
      const region = named ?? (spec.bucket ? await this.#locate(spec.bucket) : undefined);
      // Compared with the region this request was signed for, not the one learned since: requests sent
      // together right after a region change are each refused, and each must be signed again.
      if (!region || region === error.signedWith) throw error.cause;
      learnedRegions.set(this.endpoint, region);
      return await this.#sendOnce({ ...spec, region });
    }
  }

  async #locate(bucket: string): Promise<string | undefined> {
    const located = await this.#sendOnce({
      method: "GET",
      bucket,
      query: { location: "" },
      region: "us-east-1",
    })
      .then((r) => r.text()).catch(() => "");
    return /<LocationConstraint[^>]*>([^<]+)</.exec(located)?.[1];
  }

  async #sendOnce(spec: RequestSpec): Promise<Response> {
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
    } else if (isStream && spec.unsignedPayload) {
      if (spec.contentLength === undefined) throw new TypeError("a stream body needs contentLength");
      payloadHash = UNSIGNED_PAYLOAD;
    } else if (isStream) {
      if (spec.contentLength === undefined) throw new TypeError("a stream body needs contentLength");
      // Streams are signed chunk by chunk (minio-protocol §1.5); the data length travels in
      // x-amz-decoded-content-length and the encoded length in an unsigned Content-Length.
      payloadHash = STREAMING_PAYLOAD;
      headers["content-encoding"] = headers["content-encoding"]
        ? `aws-chunked,${headers["content-encoding"]}`
        : "aws-chunked";
      headers["x-amz-decoded-content-length"] = String(spec.contentLength);
    }
    const region = spec.region ?? this.signingRegion;
    const signed = await signHeaders({
      method: spec.method,
      url,
      headers,
      payloadHash,
      credentials: this.credentials,
      region,
      service: spec.service ?? "s3",
      sendContentSha: !spec.omitContentSha,
    });
    const res = isStream
      ? await sendWithLength(url, {
        method: spec.method,
        headers: signed.headers,
        body: spec.unsignedPayload
          ? spec.body as ReadableStream<Uint8Array>
          : signedChunkStream(spec.body as ReadableStream<Uint8Array>, {
            signingKey: signed.signingKey,
            amzDate: signed.amzDate,
            scope: signed.scope,
            seedSignature: signed.signature,
          }),
        length: spec.unsignedPayload
          ? spec.contentLength!
          : chunkedLength(spec.contentLength!, STREAM_CHUNK_SIZE),
        signal: spec.signal,
        caCerts: caCertsOf(this.#fetch),
      })
      : await this.#fetch(url, {
        method: spec.method,
        headers: signed.headers,
        body,
        signal: spec.signal,
        redirect: "manual",
      });
    if (res.ok || spec.allow?.includes(res.status)) return res;
    const error = await parseErrorResponse(res);
    if (
      spec.region === undefined && error.code === "AuthorizationHeaderMalformed" &&
      /region/i.test(error.message)
    ) {
      throw new RegionRetry(error, region, regionHint(res, error));
    }
    throw error;
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
  presign(
    method: "GET" | "PUT",
    bucket: string,
    key: string,
    expiresSeconds: number,
    query: QueryInput = {},
  ): Promise<URL> {
    return presignUrl({
      method,
      url: this.url({ bucket, key, query }),
      credentials: this.credentials,
      region: this.signingRegion,
      expiresSeconds,
    });
  }
}

/** A wrong-region refusal, with the region the request was signed for and the one the server named, if any. */
class RegionRetry extends Error {
  constructor(override readonly cause: S3Error, readonly signedWith: string, readonly hint?: string) {
    super(cause.message);
  }
}
