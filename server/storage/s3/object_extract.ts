/**
 * PutObjectExtract (MinIO's extension of PutObject): a PUT carrying `X-Amz-Meta-Snowball-Auto-Extract: true`
 * whose body is a tar, plain or gzip, stores each file of it as an object (write/extract.ts). The request's
 * own key names nothing: the objects are named by the archive under the optional prefix header, as MinIO
 * does. The answer is an empty 200 with the MD5 of the whole body as its ETag, or the error that stopped it.
 */
import { Md5 } from "../../lib/s3/md5.ts";
import { accessDenied, entityTooLarge, missingContentLength, notImplemented } from "../core/errors.ts";
import { extractArchive, extractOptions } from "../write/extract.ts";
import { checkQuota } from "../write/path.ts";
import { emptyResponse, type S3Request } from "./context.ts";
import { checkKey } from "./object_read.ts";

const MAX_OBJECT_SIZE = 5 * 1024 ** 4;

export async function putObjectExtract(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const state = ctx.store.bucket(ctx.bucket);
  const length = ctx.auth.contentLength;
  if (length === undefined || Number.isNaN(length)) throw missingContentLength();
  if (length > MAX_OBJECT_SIZE) throw entityTooLarge();
  if (ctx.request.headers.get("x-amz-server-side-encryption") === "aws:kms") {
    throw notImplemented(); // MinIO's handler refuses SSE-KMS here
  }
  const options = extractOptions(ctx.request.headers);
  // As MinIO: the caller must be able to write under the prefix, then each object is checked by its key.
  if (!ctx.allowed("s3:PutObject", ctx.bucket, options.prefix)) throw accessDenied();
  // The archive as sent must fit the quota (MinIO checks its size first); each object is checked again.
  await checkQuota(ctx, state, length);
  const md5 = new Md5();
  const reader = (ctx.auth.body ?? new ReadableStream({ start: (c) => c.close() })).getReader();
  const hashed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      md5.update(value);
      controller.enqueue(value);
    },
    cancel: () => {},
  }, { highWaterMark: 0 });
  await extractArchive(ctx, hashed, options);
  // What follows the end-of-archive blocks is read too, so the body's signature and length are verified.
  for (let next = await reader.read(); !next.done; next = await reader.read()) md5.update(next.value);
  return emptyResponse(200, { etag: `"${md5.digestHex()}"` });
}
