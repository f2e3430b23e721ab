/**
 * One typed error for everything the storage server can answer with: S3 XML errors, STS ErrorResponse XML,
 * admin API JSON errors, and bodiless HEAD errors (minio-protocol §2.5, §3.1, §5.21).
 */
import { child, childText, parseXml } from "./xml.ts";

/** Error with V8's stack depth, which the standard type does not declare: 0 makes an error without a stack. */
export const V8Error = Error as ErrorConstructor & { stackTraceLimit: number };

export class S3Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly requestId = "",
    readonly resource = "",
    readonly bucket = "",
    readonly key = "",
  ) {
    // The server's answer, not a fault here: nothing reads its stack, and most pages receive several (a
    // setting that is not configured is a 404).
    const stackDepth = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    super(message || code);
    V8Error.stackTraceLimit = stackDepth;
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
