/**
 * Browser-form policies judged as MinIO judges them (its checkPostPolicy), through the AWS SDK's
 * createPresignedPost: a condition on a field MinIO does not check (tagging) only lets the form send it, so
 * `["starts-with", "$tagging", ""]` is allowed (s3-tests' test_post_object_tags_authenticated_request was
 * refused with 403); success_action_status may be matched by prefix; and an expiry that is not RFC 3339 is
 * refused instead of guessed.
 */
import assert from "node:assert/strict";
import { CreateBucketCommand, GetObjectTaggingCommand, S3Client } from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { signatureOf, signingKey } from "../../server/lib/s3/sigv4.ts";
import { startStorage } from "./fixture.ts";

const TAGGING = "<Tagging><TagSet><Tag><Key>team</Key><Value>rä tt</Value></Tag></TagSet></Tagging>";

/** The form as a browser sends it: the fields, then the file. */
function form(fields: Record<string, string>, body: string): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append("file", new Blob([body]), "note.txt");
  return data;
}

Deno.test("PostObject policies: unchecked fields, prefix-matched status, RFC 3339 expiry", async (t) => {
  const f = await startStorage();
  const { accessKey, secretKey } = f.storage.root;
  const sdk = new S3Client({
    endpoint: f.storage.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: accessKey, secretAccessKey: secretKey },
  });
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "forms-policy" }));

    await t.step("a starts-with condition on tagging lets the form tag the object", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "forms-policy",
        Key: "tagged #1 ✓.txt",
        Fields: { tagging: TAGGING },
        Conditions: [["starts-with", "$tagging", ""]],
        Expires: 600,
      });
      const res = await fetch(url, { method: "POST", body: form(fields, "hello") });
      assert.equal(res.status, 204, await res.text());
      const tags = await sdk.send(
        new GetObjectTaggingCommand({ Bucket: "forms-policy", Key: "tagged #1 ✓.txt" }),
      );
      assert.deepEqual(tags.TagSet, [{ Key: "team", Value: "rä tt" }]);
    });

    await t.step("success_action_status matched by prefix answers with that status", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "forms-policy",
        Key: "created.txt",
        Fields: { success_action_status: "201" },
        Conditions: [["starts-with", "$success_action_status", "2"]],
        Expires: 600,
      });
      const res = await fetch(url, { method: "POST", body: form(fields, "hello") });
      const text = await res.text();
      assert.equal(res.status, 201, text);
      assert.match(text, /<Key>created.txt<\/Key>/);
    });

    await t.step("a policy whose expiration is not RFC 3339 is refused", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "forms-policy",
        Key: "late.txt",
        Expires: 600,
      });
      // The SDK's own policy with its expiration rewritten in a form Date.parse would accept, signed again.
      const policy = JSON.parse(atob(fields.Policy));
      policy.expiration = "2099-01-01 00:00:00";
      const encoded = btoa(JSON.stringify(policy));
      const [, date, region] = fields["X-Amz-Credential"].split("/");
      const signed = {
        ...fields,
        Policy: encoded,
        "X-Amz-Signature": signatureOf(signingKey(secretKey, date, region, "s3"), encoded),
      };
      const res = await fetch(url, { method: "POST", body: form(signed, "hello") });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Policy Condition failed/);
    });
  } finally {
    sdk.destroy();
    await f.close();
  }
});
