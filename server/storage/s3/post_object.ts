/**
 * The PostObject handler: stores the file of a browser-form upload whose form post_policy.ts has read and
 * checked, through the write path (write/object.ts) with the form's fields as a PutObject's headers, and
 * answers as the form asks.
 */
import { buildXml, children, childText, parseXml } from "../../lib/s3/xml.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { StoreError } from "../core/errors.ts";
import { writeObject } from "../write/object.ts";
import { checksumHeaders } from "./checksums.ts";
import { type S3Request, versionIdHeader } from "./context.ts";
import { malformed, type PostForm } from "./post_policy.ts";

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
  ctx.store.bucket(ctx.bucket);
  const { form } = ctx;
  const headers = new Headers();
  for (const [name, value] of form.fields) if (HEADER_FIELDS.test(name)) headers.set(name, value);
  if (!headers.has("content-type") && form.fileContentType) headers.set("content-type", form.fileContentType);
  const tagging = form.fields.get("tagging");
  if (tagging) headers.set("x-amz-tagging", taggingOf(tagging));
  const written = await writeObject(ctx, {
    kind: "post",
    headers,
    body: () => Promise.resolve(ctx.auth.body),
    contentMd5: form.fields.get("content-md5"),
  });
  const { version } = written;
  const location = `${ctx.url.origin}/${encodeURIComponent(ctx.bucket)}/${
    ctx.key.split("/").map(encodeURIComponent).join("/")
  }`;
  const extra: Record<string, string> = {
    ...checksumHeaders(written.checksum),
    ...written.sseHeaders,
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
