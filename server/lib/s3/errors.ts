/**
 * One typed error for everything the storage server can answer with: S3 XML errors, STS ErrorResponse XML,
 * admin API JSON errors, and bodiless HEAD errors (minio-protocol §2.5, §3.1, §5.21).
 */
import { child, childText, parseXml } from "./xml.ts";

/** Error with V8's stack depth, which the standard type does not declare. */
const V8Error = Error as ErrorConstructor & { stackTraceLimit: number };

/**
 * An error that is a server's answer, not a fault (S3's NoSuchKey, a setting that is not configured): made
 * without a stack, which nothing reads. Most pages receive several, and capturing a stack was about 2 % of
 * the storage's time per request that ends in one.
 */
export class AnswerError extends Error {
  constructor(message: string) {
    const stackDepth = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    super(message);
    V8Error.stackTraceLimit = stackDepth;
  }
}

export class S3Error extends AnswerError {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly requestId = "",
    readonly resource = "",
    readonly bucket = "",
    readonly key = "",
  ) {
    super(message || code);
    this.name = "S3Error";
  }
}

/** Reads an error response into an S3Error; never throws. */
export async function parseErrorResponse(res: Response): Promise<S3Error> {
  const requestId = res.headers.get("x-amz-request-id") ?? "";
  const text = res.status === 304 || res.status === 204 ? "" : await res.text().catch(() => "");
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const json = JSON.parse(trimmed);
      if (typeof json.Code === "string") {
        return new S3Error(
          json.Code,
          json.Message ?? "",
          res.status,
          json.RequestId ?? requestId,
          json.Resource ?? "",
          json.BucketName ?? "",
          json.Key ?? "",
        );
      }
    } catch { /* fall through */ }
  }
  if (trimmed.startsWith("<")) {
    try {
      const root = parseXml(trimmed);
      const node = root.name === "ErrorResponse" ? child(root, "Error") : root;
      const code = childText(node, "Code");
      if (code) {
        return new S3Error(
          code,
          childText(node, "Message") ?? "",
          res.status,
          childText(root, "RequestId") ?? childText(node, "RequestId") ?? requestId,
          childText(node, "Resource") ?? "",
          childText(node, "BucketName") ?? "",
          childText(node, "Key") ?? "",
        );
      }
    } catch { /* fall through */ }
  }
  const headerCode = res.headers.get("x-minio-error-code");
  if (headerCode) {
    return new S3Error(headerCode, res.headers.get("x-minio-error-desc") ?? "", res.status, requestId);
  }
  const fallback: Record<number, string> = {
    404: "NotFound",
    403: "AccessDenied",
    400: "BadRequest",
    301: "PermanentRedirect",
    412: "PreconditionFailed",
    304: "NotModified",
  };
  return new S3Error(
    fallback[res.status] ?? `HTTP${res.status}`,
    `the storage server answered ${res.status} ${res.statusText}${
      trimmed ? `: ${trimmed.slice(0, 200)}` : ""
    }`,
    res.status,
    requestId,
  );
}
