/**
 * The PostObject handler: stores the file of a browser-form upload whose form post_policy.ts has read and
 * checked, with the form's metadata, tags and checksum as a PutObject would, and answers as the form asks.
 */
import { replicateAfterWrite, replicationOnWrite } from "../replication/hooks.ts"; // replication hooks
import { buildXml, children, childText, parseXml } from "../../lib/s3/xml.ts";
import { verifyDigests } from "../auth/body.ts";
import { commitVersion, stageData } from "../fs/objects.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { checksumHeaders, checksummedBody, declaredChecksum } from "./checksums.ts";
import { bucketOf, notifyObject, type S3Request, versionIdHeader } from "./context.ts";
import { quotaGuard, writeOptionsFromHeaders } from "./objects.ts";
import { sseForWrite } from "../sse/request.ts";
import { malformed, type PostForm } from "./post_policy.ts";
import { StoreError } from "../core/errors.ts";

/** Form fields that act as the PutObject request headers of the same name. */
const HEADER_FIELDS =
  /^(content-type|cache-control|content-disposition|content-encoding|content-language|expires|x-amz-meta-.+|x-amz-storage-class|x-amz-checksum-.+|x-amz-object-lock-.+|x-amz-server-side-encryption.*)$/;

/** The form's `tagging` field: S3 Tagging XML, turned into the x-amz-tagging query form. */
function taggingOf(xml: string): string {
  try {
    const root = parseXml(xml);
    const set = root.name === "Tagging" ? children(root, "TagSet")[0] : undefined;
    if (!set) throw new Error("no TagSet");
    return new URLSearchParams(
      children(set, "Tag").map((t) => [childText(t, "Key") ?? "", childText(t, "Value") ?? ""]),
    ).toString();
  } catch {
    throw malformed("the tagging field is not S3 Tagging XML");
  }
}

export async function postObject(ctx: S3Request & { form: PostForm }): Promise<Response> {
  const problem = objectKeyProblem(ctx.key);
  if (problem) {
    throw new StoreError(
      problem.includes("1024") ? "KeyTooLongError" : "XMinioInvalidObjectName",
      problem,
      400,
    );
  }
  const state = bucketOf(ctx);
  const { form } = ctx;
  const headers = new Headers();
  for (const [name, value] of form.fields) if (HEADER_FIELDS.test(name)) headers.set(name, value);
  if (!headers.has("content-type") && form.fileContentType) headers.set("content-type", form.fileContentType);
  const tagging = form.fields.get("tagging");
  if (tagging) headers.set("x-amz-tagging", taggingOf(tagging));
  const options = await writeOptionsFromHeaders(ctx, state, headers);
  // SSE hook (server/storage/sse): the form's SSE fields, or the bucket's default encryption.
  const sse = await sseForWrite(ctx, headers);
  const spec = declaredChecksum(headers);
  const md5 = form.fields.get("content-md5");
  const checksum = checksummedBody(
    ctx.auth.body && md5 ? verifyDigests(ctx.auth.body, { md5Base64: md5 }) : ctx.auth.body,
    spec,
  );
  const staged = await stageData(ctx.store, checksum.body);
  const stored = spec
    ? { algorithm: spec.algorithm, value: checksum.value()!, type: "FULL_OBJECT" as const }
    : undefined;
  const replication = await replicationOnWrite(ctx, ctx.key, options.tags); // replication hook
  const version = await commitVersion(ctx.store, state, ctx.key, staged, {
    ...options,
    checksum: stored,
    beforeCommit: quotaGuard(ctx, state),
    replication,
    sse: sse?.write,
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:Post", ctx.key, version);
  const location = `${ctx.url.origin}/${encodeURIComponent(ctx.bucket)}/${
    ctx.key.split("/").map(encodeURIComponent).join("/")
  }`;
  const extra: Record<string, string> = {
    ...checksumHeaders(version.checksum ?? stored),
    ...sse?.headers,
    ...versionIdHeader(version.versionId),
  };
  return postResponse(form, ctx.bucket, location, version.etag, extra);
}

/** The answer to a successful form upload: redirect, 201 with XML, 200, or 204 (minio-protocol-2 §9.4). */
function postResponse(
  form: PostForm,
  bucket: string,
  location: string,
  etag: string,
  extra: Record<string, string>,
): Response {
  const redirect = form.fields.get("success_action_redirect") ?? form.fields.get("redirect");
  const headers = { etag: `"${etag}"`, location, ...extra };
  if (redirect) {
    let target: URL;
    try {
      target = new URL(redirect);
    } catch {
      throw malformed("success_action_redirect is not a URL");
    }
    target.searchParams.set("bucket", bucket);
    target.searchParams.set("key", form.key);
    target.searchParams.set("etag", `"${etag}"`);
    return new Response(null, { status: 303, headers: { ...headers, location: target.href } });
  }
  const status = form.fields.get("success_action_status");
  if (status === "201") {
    const body = buildXml("PostResponse", {
      Bucket: bucket,
      Key: form.key,
      ETag: `"${etag}"`,
      Location: location,
    }, { namespace: null });
    return new Response(body, { status: 201, headers: { ...headers, "content-type": "application/xml" } });
  }
  return new Response(null, { status: status === "200" ? 200 : 204, headers });
}
