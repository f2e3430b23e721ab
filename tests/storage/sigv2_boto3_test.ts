/**
 * Signature Version 2, which MinIO still accepts, from boto3 with `signature_version="s3"`: header-signed
 * calls with sub-resources (tagging, multipart uploads, ranges), a V2 presigned URL and a V2 POST policy
 * form, and the refusals of a wrong secret and of a tampered URL (sigv2_boto3.py makes the calls).
 */
import assert from "node:assert/strict";
import { startStorage } from "../s3/fixture.ts";
import { runBoto3Script } from "./python_boto3.ts";

Deno.test("boto3 with Signature Version 2: objects, tags, multipart, presigned URL and POST form", async () => {
  const f = await startStorage();
  try {
    const out = await runBoto3Script(new URL("./sigv2_boto3.py", import.meta.url).pathname, {
      S3_ENDPOINT: f.storage.url,
      S3_ACCESS_KEY: f.storage.root.accessKey,
      S3_SECRET_KEY: f.storage.root.secretKey,
    });
    assert.ok(
      out.authorizations.length > 5 && out.authorizations.every((a: string) => a.startsWith("AWS ")),
      `every call was signed with V2: ${out.authorizations}`,
    );
    assert.deepEqual(out.tags, [{ Key: "équipe", Value: "ops" }]);
    assert.equal(out.range, "signed");
    assert.deepEqual(out.keys, ["dossier été/rapport 😀 +%#?.txt"]);
    assert.match(out.multipartEtag, /-2"$/);

    assert.match(out.presignedGet, /AWSAccessKeyId=.*Signature=.*Expires=/);
    const download = await fetch(out.presignedGet);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), "signed with version 2");
    const tampered = await fetch(
      out.presignedGet.replace(/Expires=(\d+)/, (_: string, n: string) => `Expires=${+n + 1}`),
    );
    assert.equal(tampered.status, 403);
    assert.match(await tampered.text(), /<Code>SignatureDoesNotMatch<\/Code>/);

    const form = new FormData();
    for (const [name, value] of Object.entries(out.presignedPost.fields)) form.append(name, value as string);
    form.append("file", new Blob(["from a V2 form"]), "note été.txt");
    const posted = await fetch(out.presignedPost.url, { method: "POST", body: form });
    assert.equal(posted.status, 204, await posted.text());
    const stored = await f.root.send({ method: "GET", bucket: "sig-v2", key: "posted/note été.txt" });
    assert.equal(await stored.text(), "from a V2 form");

    assert.deepEqual(out.wrongSecret, { code: "SignatureDoesNotMatch", status: 403 });
    const expired = await fetch(out.presignedGet.replace(/Expires=\d+/, "Expires=1000000000"));
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /<Code>AccessDenied<\/Code><Message>Request has expired/);
    const undated = await fetch(`${f.storage.url}/sig-v2`, {
      headers: { authorization: `AWS ${f.storage.root.accessKey}:c2lnbmF0dXJl` },
    });
    assert.equal(undated.status, 403, "AccessDenied is a 403");
    assert.match(
      await undated.text(),
      /<Code>AccessDenied<\/Code><Message>AWS authentication requires a valid Date/,
    );
  } finally {
    await f.close();
  }
});
