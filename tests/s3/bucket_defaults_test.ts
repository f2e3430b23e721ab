/**
 * What MinIO answers for S3 features it does not have, through the AWS SDK v3: canned `private` ACLs are
 * accepted and ACLs read with a typed CanonicalUser grantee; website, logging, acceleration and requester
 * pays read as S3's defaults and cannot be set; the policy status follows the bucket policy.
 */
import assert from "node:assert/strict";
import {
  CreateBucketCommand,
  DeleteBucketWebsiteCommand,
  GetBucketAccelerateConfigurationCommand,
  GetBucketAclCommand,
  GetBucketLoggingCommand,
  GetBucketPolicyStatusCommand,
  GetBucketRequestPaymentCommand,
  GetBucketWebsiteCommand,
  GetObjectAclCommand,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutBucketWebsiteCommand,
  PutObjectAclCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

Deno.test("ACLs, website, logging, acceleration, requester pays and policy status answer as MinIO's", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  const Bucket = "defaults";
  try {
    await sdk.send(new CreateBucketCommand({ Bucket }));
    const Key = "photo été 😀.jpg";
    await sdk.send(new PutObjectCommand({ Bucket, Key, Body: "x" }));

    await sdk.send(new PutBucketAclCommand({ Bucket, ACL: "private" }));
    await sdk.send(new PutObjectAclCommand({ Bucket, Key, ACL: "private" }));
    await failsWith(
      sdk.send(new PutObjectAclCommand({ Bucket, Key, ACL: "public-read" })),
      "NotImplemented",
      501,
    );
    for (
      const acl of [
        await sdk.send(new GetBucketAclCommand({ Bucket })),
        await sdk.send(new GetObjectAclCommand({ Bucket, Key })),
      ]
    ) {
      assert.equal(acl.Grants?.length, 1);
      assert.equal(acl.Grants?.[0].Permission, "FULL_CONTROL");
      assert.equal(acl.Grants?.[0].Grantee?.Type, "CanonicalUser", "the grantee's xsi:type");
      assert.equal(acl.Grants?.[0].Grantee?.ID, acl.Owner?.ID);
    }
    await failsWith(sdk.send(new GetObjectAclCommand({ Bucket, Key: "missing" })), "NoSuchKey", 404);

    await failsWith(sdk.send(new GetBucketWebsiteCommand({ Bucket })), "NoSuchWebsiteConfiguration", 404);
    await sdk.send(new DeleteBucketWebsiteCommand({ Bucket }));
    await failsWith(
      sdk.send(
        new PutBucketWebsiteCommand({
          Bucket,
          WebsiteConfiguration: { IndexDocument: { Suffix: "index.html" } },
        }),
      ),
      "NotImplemented",
      501,
    );
    const logging = await sdk.send(new GetBucketLoggingCommand({ Bucket }));
    assert.equal(logging.$metadata.httpStatusCode, 200);
    assert.equal(logging.LoggingEnabled, undefined);
    const accelerate = await sdk.send(new GetBucketAccelerateConfigurationCommand({ Bucket }));
    assert.equal(accelerate.$metadata.httpStatusCode, 200);
    assert.equal(accelerate.Status, undefined);
    assert.equal((await sdk.send(new GetBucketRequestPaymentCommand({ Bucket }))).Payer, "BucketOwner");
    await failsWith(sdk.send(new GetBucketLoggingCommand({ Bucket: "no-such-bucket" })), "NoSuchBucket", 404);

    assert.equal(
      (await sdk.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic,
      false,
    );
    const statement = (Action: string[], Resource: string) => ({
      Effect: "Allow",
      Principal: { AWS: ["*"] },
      Action,
      Resource: [Resource],
    });
    await sdk.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            statement(["s3:ListBucket"], `arn:aws:s3:::${Bucket}`),
            statement(["s3:GetObject", "s3:PutObject"], `arn:aws:s3:::${Bucket}/*`),
          ],
        }),
      }),
    );
    assert.equal((await sdk.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic, true);
  } finally {
    await f.close();
  }
});
