/**
 * The storage's one error type and the three shapes its fronts answer it in: S3's error XML (minio-protocol
 * §5.21; HEAD gets the status and x-minio-error-* headers), the admin API's JSON (§3.1) and STS's
 * ErrorResponse XML (§2.5). Every part of the storage throws StoreError; only s3_server.ts and the admin
 * and STS handlers turn one into a response, through these functions.
 */
import { AnswerError } from "../../lib/s3/errors.ts";
import { buildXml } from "../../lib/s3/xml.ts";

/** An S3 error raised anywhere in the storage; the front turns it into its answer with `headers` added. */
export class StoreError extends AnswerError {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "StoreError";
  }
}

/** MinIO's fixed host id, carried by every error body (and event records' x-amz-id-2). */
export const HOST_ID = "dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8";

export const accessDenied = () => new StoreError("AccessDenied", "Access Denied.", 403);
export const invalidArgument = (message: string) => new StoreError("InvalidArgument", message, 400);
export const notImplemented = () =>
  new StoreError(
    "NotImplemented",
    "A header you provided implies functionality that is not implemented",
    501,
  );
export const noSuchKey = (headers: Record<string, string> = {}) =>
  new StoreError("NoSuchKey", "The specified key does not exist.", 404, headers);
export const malformedXml = () =>
  new StoreError(
    "MalformedXML",
    "The XML you provided was not well-formed or did not validate against our published schema.",
    400,
  );
export const missingContentLength = () =>
  new StoreError("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
export const incompleteBody = () =>
  new StoreError(
    "IncompleteBody",
    "You did not provide the number of bytes specified by the Content-Length HTTP header.",
    400,
  );
export const entityTooLarge = () =>
  new StoreError("EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.", 400);
/** MinIO's answer to a name with "." or ".." segments, wherever it comes (path, query, or an IAM name). */
export const badComponents = () =>
  new StoreError(
    "XMinioInvalidResourceName",
    'Resource name contains bad components such as ".." or ".".',
    400,
  );

/** Decodes for display (error bodies): malformed escapes stay as they are instead of throwing. */
export function decodeForDisplay(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** S3 error XML (status-only with x-minio-error-* headers for HEAD). */
export function s3ErrorResponse(error: StoreError, request: Request, url: URL, requestId: string): Response {
  const headers: Record<string, string> = { "x-amz-request-id": requestId, ...error.headers };
  if (request.method === "HEAD") {
    return new Response(null, {
      status: error.status,
      headers: { ...headers, "x-minio-error-code": error.code, "x-minio-error-desc": error.message },
    });
  }
  const [bucket, ...rest] = decodeForDisplay(url.pathname).slice(1).split("/");
  const body = buildXml("Error", {
    Code: error.code,
    Message: error.message,
    Key: rest.length ? rest.join("/") : undefined,
    BucketName: bucket || undefined,
    Resource: url.pathname,
    RequestId: requestId,
    HostId: HOST_ID,
  }, { namespace: null });
  return new Response(body, {
    status: error.status,
    headers: { ...headers, "content-type": "application/xml" },
  });
}

/** The admin API's JSON error (madmin reads Code and Message). */
export function adminErrorResponse(error: StoreError, url: URL, requestId: string): Response {
  return Response.json(
    {
      Code: error.code,
      Message: error.message,
      Resource: url.pathname,
      RequestId: requestId,
      HostId: HOST_ID,
    },
    { status: error.status, headers: { "x-amz-request-id": requestId, ...error.headers } },
  );
}

const STS_NAMESPACE = "https://sts.amazonaws.com/doc/2011-06-15/";

/** STS's ErrorResponse XML. */
export function stsErrorResponse(error: StoreError, requestId: string): Response {
  const body = buildXml("ErrorResponse", {
    Error: { Type: "", Code: error.code, Message: error.message },
    RequestId: requestId,
  }, { namespace: STS_NAMESPACE });
  return new Response(body, {
    status: error.status,
    headers: { "content-type": "application/xml", "x-amz-request-id": requestId, ...error.headers },
  });
}
