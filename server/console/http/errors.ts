/**
 * One error type for the console API, and the one place (`handleError`) where any error becomes a response:
 * JSON `{code, message, detailedMessage}` for /api, the error page or a redirect to sign-in for pages.
 */
import type { Context } from "hono";
import { type MessageKey, t } from "../../../islands/lib/i18n/t.ts";

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
  static unauthorized(message = t("common.error.invalidSession"), detail?: string): ApiError {
    return new ApiError(401, message, { detail });
  }
  static forbidden(message = t("common.error.accessDenied"), detail?: string): ApiError {
    return new ApiError(403, message, { detail });
  }
  static notFound(message = t("common.error.notFound"), detail?: string): ApiError {
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
const STORAGE_CODE_STATUS: Record<string, [number, MessageKey]> = {
  AccessDenied: [403, "common.error.accessDenied"],
  XMinioIAMActionNotAllowed: [403, "common.error.accessDenied"],
  XMinioInvalidIAMCredentials: [403, "common.error.accessDenied"],
  InvalidAccessKeyId: [401, "common.error.invalidSession"],
  ExpiredToken: [401, "common.error.invalidSession"],
  InvalidTokenId: [401, "common.error.invalidSession"],
  SignatureDoesNotMatch: [403, "common.error.checkPassword"],
  NoSuchBucket: [404, "common.error.noSuchBucket"],
  NoSuchKey: [404, "common.error.noSuchKey"],
  NoSuchVersion: [404, "common.error.noSuchVersion"],
  NoSuchUpload: [404, "common.error.noSuchUpload"],
  NoSuchBucketPolicy: [404, "common.error.noSuchBucketPolicy"],
  NoSuchLifecycleConfiguration: [404, "common.error.noSuchLifecycle"],
  NoSuchTagSet: [404, "common.error.noSuchTagSet"],
  ReplicationConfigurationNotFoundError: [404, "common.error.noReplicationConfig"],
  ObjectLockConfigurationNotFoundError: [404, "common.error.noObjectLockConfig"],
  ServerSideEncryptionConfigurationNotFoundError: [404, "common.error.noEncryptionConfig"],
  XMinioAdminNoSuchUser: [404, "common.error.noSuchUser"],
  XMinioAdminNoSuchGroup: [404, "common.error.noSuchGroup"],
  XMinioAdminNoSuchPolicy: [404, "common.error.noSuchPolicy"],
  XMinioAdminNoSuchAccessKey: [404, "common.error.noSuchAccessKey"],
  XMinioAdminNoSuchQuotaConfiguration: [404, "common.error.noSuchQuota"],
  XMinioAdminTierNotFound: [404, "common.error.noSuchTier"],
  XMinioAdminRemoteTargetNotFoundError: [404, "common.error.noSuchRemoteTarget"],
  BucketAlreadyExists: [409, "common.error.bucketExists"],
  BucketAlreadyOwnedByYou: [409, "common.error.bucketOwnedByYou"],
  BucketNotEmpty: [409, "common.error.bucketNotEmpty"],
  XMinioAdminTierAlreadyExists: [409, "common.error.tierExists"],
  XMinioAdminTierBackendInUse: [409, "common.error.tierBackendInUse"],
  InvalidBucketName: [400, "common.error.invalidBucketName"],
  MalformedPolicy: [400, "common.error.invalidPolicy"],
  XMinioMalformedIAMPolicy: [400, "common.error.invalidPolicy"],
  MalformedXML: [400, "common.error.invalidRequest"],
  InvalidArgument: [400, "common.error.invalidRequest"],
  InvalidRequest: [400, "common.error.invalidRequest"],
  // MinIO's answer to an archive it could not unpack ("tar file error: …", PutObjectExtract).
  BadRequest: [400, "common.error.invalidRequest"],
  InvalidBucketState: [400, "common.error.invalidBucketState"],
  InvalidStorageClass: [400, "common.error.invalidStorageClass"],
  XMinioAdminInvalidArgument: [400, "common.error.invalidRequest"],
  XMinioInvalidResourceName: [400, "common.error.invalidName"],
  XMinioAdminGroupNotEmpty: [400, "common.error.groupNotEmpty"],
  XMinioAdminConfigBadJSON: [400, "common.error.invalidConfiguration"],
  XMinioAdminInvalidAccessKey: [400, "common.error.invalidAccessKey"],
  XMinioAdminInvalidSecretKey: [400, "common.error.invalidSecretKey"],
  XMinioAdminTierNameNotUpperCase: [400, "common.error.invalidTierName"],
  XMinioAdminTierBackendNotEmpty: [400, "common.error.tierBackendNotEmpty"],
  XMinioAdminTierMissingCredentials: [403, "common.error.tierCredentialsMissing"],
  XMinioAdminTierInvalidConfig: [400, "common.error.invalidTierConfig"],
  XMinioAdminTierTypeUnsupported: [400, "common.error.unsupportedTierType"],
  XMinioAdminBucketQuotaExceeded: [400, "common.error.quotaExceeded"],
  XMinioAdminReplicationBandwidthLimitError: [400, "common.error.invalidBandwidth"],
  XMinioAdminRemoteIdenticalToSource: [400, "common.error.remoteIdentical"],
  XMinioAdminReplicationTargetNotVersionedError: [400, "common.error.remoteNotVersioned"],
  XMinioAdminRemoteARNTypeInvalid: [400, "common.error.invalidRemoteTarget"],
  XMinioAdminReplicationRemoteConnectionError: [503, "common.error.remoteUnreachable"],
  NotImplemented: [501, "common.error.notImplemented"],
  InvalidRange: [416, "common.error.rangeNotSatisfiable"],
  MethodNotAllowed: [405, "common.error.deleteMarker"],
  InvalidPart: [400, "common.error.invalidPart"],
  InvalidPartOrder: [400, "common.error.invalidPartOrder"],
  EntityTooSmall: [400, "common.error.partTooSmall"],
  EntityTooLarge: [400, "common.error.uploadTooLarge"],
  KeyTooLongError: [400, "common.error.objectNameTooLong"],
  XMinioInvalidObjectName: [400, "common.error.invalidObjectName"],
  XAmzContentChecksumMismatch: [400, "common.error.uploadCorrupted"],
  PreconditionFailed: [412, "common.error.preconditionFailed"],
};

/** A failed Kubernetes call (server/console/k8s/client.ts K8sError), matched structurally. */
function isKubernetesError(error: unknown): error is { status: number; reason: string; message: string } {
  return error instanceof Error && error.name === "K8sError" &&
    typeof (error as { status?: unknown }).status === "number";
}

/** Kubernetes answers → console status and message (operator-k8s.md §1.3); the API server's text is the detail. */
function fromKubernetes(error: { status: number; reason: string; message: string }): ApiError {
  const table: Record<number, MessageKey> = {
    400: "common.error.invalidRequest",
    401: "common.error.unauthorized",
    403: "common.error.forbidden",
    404: "common.error.notFound",
    409: error.reason === "AlreadyExists" ? "common.error.alreadyExists" : "common.error.conflict",
    422: "common.error.invalidRequest",
    503: "common.error.k8sUnreachable",
    504: "common.error.k8sTimeout",
  };
  const status = error.status === 422 ? 400 : table[error.status] ? error.status : 500;
  return new ApiError(status, t(table[error.status] ?? "common.error.generic"), {
    detail: error.message,
  });
}

/** Translates any error into an ApiError; storage errors keep the server's text as the detail. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isKubernetesError(error)) return fromKubernetes(error);
  if (isStorageError(error)) {
    let [status, message]: [number, MessageKey] = STORAGE_CODE_STATUS[error.code] ??
      [502, "common.error.storageError"];
    // MinIO reuses XMinioInvalidIAMCredentials with status 404 for "service account not found": trust the status.
    if (error.status === 404 && status === 403) [status, message] = [404, "common.error.notFound"];
    // A server without MinIO's admin API takes /minio/admin/… for an object in bucket "minio" (a name MinIO
    // reserves): the call needs an API the server does not have, not a missing bucket.
    if (error.code === "NoSuchBucket" && (error as { bucket?: unknown }).bucket === "minio") {
      [status, message] = [501, "common.error.noAdminApi"];
    }
    return new ApiError(status, t(message), { detail: error.message || error.code });
  }
  if (error instanceof TypeError && /fetch|connect|network/i.test(error.message)) {
    return new ApiError(502, t("common.error.storageUnreachable"), { detail: error.message });
  }
  return new ApiError(500, t("common.error.generic"));
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
