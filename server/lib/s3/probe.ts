/**
 * Harmless questions that tell which protocols an S3 server speaks, asked over the wire like every other call:
 * MinIO's admin API, its metrics endpoints and STS, answered by what an unsigned request gets back, and the
 * plain S3 bucket features (versioning, object lock, tagging, lifecycle), answered by reading a bucket's
 * configuration. Nothing here changes anything on the server.
 *
 * The rule throughout: a server that does not implement a path treats `/minio/...` as bucket "minio" and
 * answers an S3 error about that bucket or key (NoSuchBucket, NoSuchKey, AccessDenied naming a bucket), or a
 * bare 404/405/501; a MinIO endpoint answers its own error (JSON for admin and metrics, the STS namespace for
 * STS) even to an unsigned request.
 */
import type { S3Client } from "./client.ts";
import { S3Error } from "./errors.ts";

/** What an unsigned request to a path told: the path is served, not served, or the server did not answer. */
export type Presence = "yes" | "no" | "unknown";

/** A plain S3 feature: supported, refused as not implemented, or not yet known (no bucket to ask about). */
export type FeatureSupport = "yes" | "no" | "unknown";

export interface WireCapabilities {
  adminApi: Presence;
  sts: Presence;
  /** The newest metrics endpoint served: "v3" (/minio/metrics/v3), "v2" (/minio/v2/metrics/cluster) or none. */
  metrics: "v3" | "v2" | "none" | "unknown";
  /** The Server header of the root's answer ("MinIO", "AmazonS3", …), when one is sent. */
  serverHeader: string;
}

const TIMEOUT_MS = 5000;

async function ask(
  fetcher: typeof fetch,
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string; body: string; server: string } | null> {
  try {
    const res = await fetcher(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" });
    const body = (await res.text()).slice(0, 4096);
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body,
      server: res.headers.get("server") ?? "",
    };
  } catch {
    return null;
  }
}

/** An S3 XML error about bucket "minio" or one of its keys: the path was taken for an object path. */
function isObjectPathAnswer(body: string): boolean {
  return /<Code>(NoSuchBucket|NoSuchKey|AccessDenied|InvalidBucketName|AllAccessDisabled)<\/Code>/.test(
    body,
  ) &&
    /<(BucketName|Key)>/.test(body);
}

/** A MinIO admin or metrics error answer: JSON with a Code, never an S3 XML error document. */
function isMinioJsonError(answer: { type: string; body: string }): boolean {
  if (!answer.body.trimStart().startsWith("{")) return false;
  try {
    return typeof JSON.parse(answer.body).Code === "string";
  } catch {
    return false;
  }
}

function served(answer: Awaited<ReturnType<typeof ask>>, okBody: (body: string) => boolean): Presence {
  if (!answer) return "unknown";
  if (answer.status >= 200 && answer.status < 300) return okBody(answer.body) ? "yes" : "no";
  if (isMinioJsonError(answer)) return "yes";
  if (isObjectPathAnswer(answer.body) || [400, 404, 405, 501].includes(answer.status)) return "no";
  return "unknown";
}

/** Asks the endpoint, unsigned, which MinIO protocols it serves. Never throws. */
export async function probeWire(endpoint: string, fetcher: typeof fetch): Promise<WireCapabilities> {
  const base = endpoint.replace(/\/+$/, "");
  const [admin, v3, v2, sts, root] = await Promise.all([
    ask(fetcher, `${base}/minio/admin/v3/info`),
    ask(fetcher, `${base}/minio/metrics/v3`),
    ask(fetcher, `${base}/minio/v2/metrics/cluster`),
    // AssumeRole without a signature: MinIO's STS refuses it in its own namespace; nothing is issued.
    ask(fetcher, `${base}/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "Action=AssumeRole&Version=2011-06-15",
    }),
    // The bucket list, unsigned: refused or not, the answer carries the Server header.
    ask(fetcher, `${base}/`),
  ]);
  const isExposition = (body: string) => /^# (HELP|TYPE) /m.test(body) || body.trim() === "";
  const metricsV3 = served(v3, isExposition);
  const metricsV2 = served(v2, isExposition);
  let stsServed: Presence = "unknown";
  if (sts) {
    stsServed = /<(AssumeRoleResponse|ErrorResponse)[^>]*sts\.amazonaws\.com/.test(sts.body) ? "yes" : "no";
  }
  return {
    adminApi: served(admin, (body) => body.trimStart().startsWith("{")),
    sts: stsServed,
    metrics: metricsV3 === "yes"
      ? "v3"
      : metricsV2 === "yes"
      ? "v2"
      : metricsV3 === "unknown" || metricsV2 === "unknown"
      ? "unknown"
      : "none",
    serverHeader: [root, admin, v3, v2, sts].find((answer) => answer?.server)?.server ?? "",
  };
}

/** Errors meaning "this server does not implement that request", as opposed to "not set on this bucket". */
export function isNotImplemented(error: unknown): boolean {
  return error instanceof S3Error &&
    (error.code === "NotImplemented" || error.code === "MethodNotAllowed" || error.status === 501);
}

/**
 * The answer of one configuration read: implemented (set or not), not implemented, or unknown (any other
 * failure, such as a refusal for this account). A success must be the configuration document asked for: a
 * server that ignores the subresource answers the bucket listing instead (s3rver does for ?versioning).
 */
async function supports(read: () => Promise<Response>, root: string): Promise<FeatureSupport> {
  try {
    const body = await (await read()).text();
    return new RegExp(`<${root}[\\s>/]`).test(body) ? "yes" : "no";
  } catch (error) {
    if (isNotImplemented(error)) return "no";
    // "Not configured" answers come from a server that implements the feature.
    if (error instanceof S3Error && /^NoSuch|NotFound|ObjectLockConfigurationNotFound/.test(error.code)) {
      return "yes";
    }
    return "unknown";
  }
}

export interface BucketFeatures {
  versioning: FeatureSupport;
  objectLock: FeatureSupport;
  tagging: FeatureSupport;
  lifecycle: FeatureSupport;
}

/** Reads (never writes) each feature's configuration of one bucket the signed client may see. */
export async function probeBucketFeatures(client: S3Client, bucket: string): Promise<BucketFeatures> {
  const read = (sub: string) => () => client.send({ method: "GET", bucket, query: { [sub]: "" } });
  const [versioning, objectLock, tagging, lifecycle] = await Promise.all([
    supports(read("versioning"), "VersioningConfiguration"),
    supports(read("object-lock"), "ObjectLockConfiguration"),
    supports(read("tagging"), "Tagging"),
    supports(read("lifecycle"), "LifecycleConfiguration"),
  ]);
  return { versioning, objectLock, tagging, lifecycle };
}

/**
 * An answer meaning the server has no MinIO admin API at all: the admin path was taken for bucket "minio"
 * (or refused as not implemented), as opposed to a refusal of this account.
 */
export function isMissingAdminApi(error: unknown): boolean {
  return error instanceof S3Error &&
    (isNotImplemented(error) || error.bucket === "minio" ||
      (error.code === "NoSuchBucket" && error.status === 404));
}
