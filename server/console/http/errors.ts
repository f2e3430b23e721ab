/**
 * One error type for the console API, and the one place (`handleError`) where any error becomes a response:
 * JSON `{code, message, detailedMessage}` for /api, the error page or a redirect to sign-in for pages.
 */
import type { Context } from "hono";

/** An error with an HTTP status the user should see; thrown anywhere below the handlers. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  /** Per-field problems for forms (optional; the three contract fields stay). */
  readonly fields?: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { detail?: string; fields?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.detail = options.detail ?? "";
    this.fields = options.fields;
  }

  static badRequest(message: string, detail?: string): ApiError {
    return new ApiError(400, message, { detail });
  }
  static unauthorized(message = "invalid session", detail?: string): ApiError {
    return new ApiError(401, message, { detail });
  }
  static forbidden(message = "access denied", detail?: string): ApiError {
    return new ApiError(403, message, { detail });
  }
  static notFound(message = "not found", detail?: string): ApiError {
    return new ApiError(404, message, { detail });
  }

  /** The contract body of api-index §1. */
  toBody(): ErrorBody {
    const body: ErrorBody = {
      code: this.status,
      message: this.message,
      detailedMessage: this.detail || this.message,
    };
    if (this.fields) body.fields = this.fields;
    return body;
  }
}

export interface ErrorBody {
  code: number;
  message: string;
  detailedMessage: string;
  fields?: Record<string, string>;
}

/** The shape of a storage protocol error (server/lib/s3/errors.ts S3Error), matched structurally. */
interface StorageErrorLike {
  name: string;
  code: string;
  message: string;
  status: number;
}

function isStorageError(error: unknown): error is StorageErrorLike {
  return error instanceof Error && error.name === "S3Error" &&
    typeof (error as { code?: unknown }).code === "string";
}

/** Storage error codes → console status and message (api-index §1 status mapping). Unknown codes → 502. */
const STORAGE_CODE_STATUS: Record<string, [number, string]> = {
  AccessDenied: [403, "access denied"],
  XMinioIAMActionNotAllowed: [403, "access denied"],
  XMinioInvalidIAMCredentials: [403, "access denied"],
  InvalidAccessKeyId: [401, "invalid session"],
  ExpiredToken: [401, "invalid session"],
  InvalidTokenId: [401, "invalid session"],
  SignatureDoesNotMatch: [403, "error please check your current password"],
  NoSuchBucket: [404, "not found"],
  NoSuchKey: [404, "not found"],
  NoSuchVersion: [404, "not found"],
  NoSuchUpload: [404, "not found"],
  NoSuchBucketPolicy: [404, "not found"],
  NoSuchLifecycleConfiguration: [404, "not found"],
  NoSuchTagSet: [404, "not found"],
  ReplicationConfigurationNotFoundError: [404, "not found"],
  ObjectLockConfigurationNotFoundError: [404, "not found"],
  ServerSideEncryptionConfigurationNotFoundError: [
    404,
    "The server side encryption configuration was not found",
  ],
  XMinioAdminNoSuchUser: [404, "not found"],
  XMinioAdminNoSuchGroup: [404, "not found"],
  XMinioAdminNoSuchPolicy: [404, "not found"],
  XMinioAdminNoSuchAccessKey: [404, "not found"],
  XMinioAdminNoSuchQuotaConfiguration: [404, "not found"],
  XMinioAdminTierNotFound: [404, "not found"],
  XMinioAdminRemoteTargetNotFoundError: [404, "not found"],
  BucketAlreadyExists: [409, "bucket already exists"],
  BucketAlreadyOwnedByYou: [409, "bucket already exists"],
  BucketNotEmpty: [409, "bucket is not empty"],
  XMinioAdminTierAlreadyExists: [409, "tier already exists"],
  XMinioAdminTierBackendInUse: [409, "tier backend already in use"],
  InvalidBucketName: [400, "invalid bucket name"],
  MalformedPolicy: [400, "invalid policy"],
  XMinioMalformedIAMPolicy: [400, "invalid policy"],
  MalformedXML: [400, "invalid request"],
  InvalidArgument: [400, "invalid request"],
  InvalidRequest: [400, "invalid request"],
  // MinIO's answer to an archive it could not unpack ("tar file error: …", PutObjectExtract).
  BadRequest: [400, "invalid request"],
  InvalidBucketState: [400, "invalid bucket state"],
  InvalidStorageClass: [400, "invalid storage class"],
  XMinioAdminInvalidArgument: [400, "invalid request"],
  XMinioInvalidResourceName: [400, "invalid name"],
  XMinioAdminGroupNotEmpty: [400, "group is not empty"],
  XMinioAdminConfigBadJSON: [400, "invalid configuration"],
  XMinioAdminInvalidAccessKey: [400, "invalid access key"],
  XMinioAdminInvalidSecretKey: [400, "invalid secret key"],
  XMinioAdminTierNameNotUpperCase: [400, "invalid tier name"],
  XMinioAdminTierBackendNotEmpty: [400, "tier backend is not empty"],
  XMinioAdminTierMissingCredentials: [403, "tier credentials missing"],
  XMinioAdminTierInvalidConfig: [400, "invalid tier configuration"],
  XMinioAdminTierTypeUnsupported: [400, "unsupported tier type"],
  XMinioAdminBucketQuotaExceeded: [400, "bucket quota exceeded"],
  XMinioAdminReplicationBandwidthLimitError: [400, "invalid bandwidth"],
  XMinioAdminRemoteIdenticalToSource: [400, "remote target is identical to source"],
  XMinioAdminReplicationTargetNotVersionedError: [400, "versioning must be enabled on the remote bucket"],
  XMinioAdminRemoteARNTypeInvalid: [400, "invalid remote target"],
  XMinioAdminReplicationRemoteConnectionError: [503, "remote target is unreachable"],
  NotImplemented: [501, "not implemented by the storage server"],
  InvalidRange: [416, "the requested range is not satisfiable"],
  MethodNotAllowed: [405, "the object is a delete marker"],
  InvalidPart: [400, "invalid part"],
  InvalidPartOrder: [400, "invalid part order"],
  EntityTooSmall: [400, "a part is too small"],
  EntityTooLarge: [400, "the upload is too large"],
  KeyTooLongError: [400, "the object name is too long"],
  XMinioInvalidObjectName: [400, "invalid object name"],
  XAmzContentChecksumMismatch: [400, "the upload was corrupted on the way"],
  PreconditionFailed: [412, "a precondition failed"],
};

/** A failed Kubernetes call (server/console/k8s/client.ts K8sError), matched structurally. */
function isKubernetesError(error: unknown): error is { status: number; reason: string; message: string } {
  return error instanceof Error && error.name === "K8sError" &&
    typeof (error as { status?: unknown }).status === "number";
}

/** Kubernetes answers → console status and message (operator-k8s.md §1.3); the API server's text is the detail. */
function fromKubernetes(error: { status: number; reason: string; message: string }): ApiError {
  const table: Record<number, string> = {
    400: "invalid request",
    401: "unauthorized",
    403: "forbidden",
    404: "not found",
    409: error.reason === "AlreadyExists"
      ? "already exists"
      : "the object was changed meanwhile; reload and try again",
    422: "invalid request",
    503: "the Kubernetes API server cannot be reached",
    504: "the Kubernetes API server did not answer in time",
  };
  const status = error.status === 422 ? 400 : table[error.status] ? error.status : 500;
  return new ApiError(status, table[error.status] ?? "an error occurred, please try again", {
    detail: error.message,
  });
}

/** Translates any error into an ApiError; storage errors keep the server's text as the detail. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isKubernetesError(error)) return fromKubernetes(error);
  if (isStorageError(error)) {
    let [status, message] = STORAGE_CODE_STATUS[error.code] ?? [502, "the storage server reported an error"];
    // MinIO reuses XMinioInvalidIAMCredentials with status 404 for "service account not found": trust the status.
    if (error.status === 404 && status === 403) [status, message] = [404, "not found"];
    // A server without MinIO's admin API takes /minio/admin/… for an object in bucket "minio" (a name MinIO
    // reserves): the call needs an API the server does not have, not a missing bucket.
    if (error.code === "NoSuchBucket" && (error as { bucket?: unknown }).bucket === "minio") {
      [status, message] = [501, "this server does not speak MinIO's admin API"];
    }
    return new ApiError(status, message, { detail: error.message || error.code });
  }
  if (error instanceof TypeError && /fetch|connect|network/i.test(error.message)) {
    return new ApiError(502, "the storage server cannot be reached", { detail: error.message });
  }
  return new ApiError(500, "an error occurred, please try again");
}

/** Logging hook used by handleError for unexpected errors (cause and request id go to the log only). */
export type ErrorLogger = (message: string, fields: Record<string, unknown>) => void;

/**
 * Builds the app's onError: API paths get the JSON contract body; pages get a redirect to sign-in on 401 or
 * a rendered error page. Stack traces never reach the client.
 */
export function createErrorHandler(options: {
  log: ErrorLogger;
  loginUrl: string;
  /** Called on every 401 so the browser drops a session the storage server no longer accepts. */
  onUnauthorized: (c: Context) => void;
  renderErrorPage: (c: Context, error: ApiError) => Response | Promise<Response>;
}) {
  return (error: unknown, c: Context): Response | Promise<Response> => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      options.log("request failed", {
        requestId: c.get("requestId" as never),
        path: c.req.path,
        status: apiError.status,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
    if (apiError.status === 401) options.onUnauthorized(c);
    // The subpath is stripped before routing (app.ts), so paths here start at "/".
    if (c.req.path.startsWith("/api/")) return c.json(apiError.toBody(), apiError.status as 400);
    if (apiError.status === 401) return c.redirect(options.loginUrl, 302);
    return options.renderErrorPage(c, apiError);
  };
}
