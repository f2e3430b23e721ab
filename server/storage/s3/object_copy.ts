/** CopyObject (minio-protocol §5.14): a version copied whole, its metadata and tags copied or replaced. */
import { invalidArgument } from "../core/errors.ts";
import { writeObject } from "../write/object.ts";
import { type S3Request, versionIdHeader, xmlResponse, xmlTime } from "./context.ts";
import { copySourceVersionHeader, readCopySource, resolveCopySource } from "./copy_source.ts";
import { checkKey } from "./object_read.ts";

const DIRECTIVES = ["COPY", "REPLACE"] as const;
const directiveOf = (headers: Headers, name: string) =>
  DIRECTIVES.find((d) => d === (headers.get(name) ?? "COPY"));

export async function copyObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  ctx.store.bucket(ctx.bucket);
  const source = await resolveCopySource(ctx);
  const h = ctx.request.headers;
  const metadata = directiveOf(h, "x-amz-metadata-directive");
  const tagging = directiveOf(h, "x-amz-tagging-directive");
  if (!metadata || !tagging) throw invalidArgument("Unknown metadata directive.");
  const written = await writeObject(ctx, {
    kind: "copy",
    headers: h,
    body: () => readCopySource(ctx, source),
    length: source.version.size,
    copy: {
      version: source.version,
      checksum: source.sse.meta ? source.sse.meta.checksum : source.version.checksum,
      metadata,
      tagging,
      sameObject: source.bucket === ctx.bucket && source.key === ctx.key && !source.versionId,
    },
  });
  return xmlResponse("CopyObjectResult", {
    LastModified: xmlTime(written.version.lastModified),
    ETag: `"${written.version.etag}"`,
  }, {
    headers: {
      ...versionIdHeader(written.version.versionId),
      ...written.sseHeaders,
      ...written.lifecycleHeaders,
      ...copySourceVersionHeader(source),
    },
  });
}
