/**
 * Encryption at rest from Debian's AWS CLI (/usr/bin/aws): `s3 cp` with --sse AES256, --sse aws:kms with the
 * key store's key, and --sse-c with a customer key file (multipart uploads); head-object reports each, the
 * bytes come back, an invented KMS key id and a missing customer key are refused.
 */
import assert from "node:assert/strict";
import { startStorage } from "../s3/fixture.ts";
import { KMS_KEY, pattern, sameBytes } from "../s3/sse_helpers.ts";
import { awsCli } from "./awscli.ts";

Deno.test("AWS CLI: SSE-S3, SSE-KMS and SSE-C uploads and downloads", async () => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  const { home, run, aws, json, close } = await awsCli(f, [
    "multipart_threshold = 5MB",
    "multipart_chunksize = 5MB",
  ]);
  try {
    await aws("s3api", "create-bucket", "--bucket", "cli-sse");
    const body = pattern(6 * 1024 * 1024); // over the CLI's multipart threshold (5 MB here): parts are encrypted too
    await Deno.writeFile(`${home}/body.bin`, body);
    const key = new Uint8Array(32).fill(11);
    await Deno.writeFile(`${home}/customer.key`, key);

    await aws("s3", "cp", `${home}/body.bin`, "s3://cli-sse/s3.bin", "--sse", "AES256");
    const s3Head = await json("s3api", "head-object", "--bucket", "cli-sse", "--key", "s3.bin");
    assert.equal(s3Head.ServerSideEncryption, "AES256");
    assert.match(s3Head.ETag, /-2"$/, "the CLI uploaded it in two parts");
    await aws("s3", "cp", "s3://cli-sse/s3.bin", `${home}/s3.back`);
    sameBytes(await Deno.readFile(`${home}/s3.back`), body, "SSE-S3 round trip");

    await aws(
      "s3",
      "cp",
      `${home}/body.bin`,
      "s3://cli-sse/kms.bin",
      "--sse",
      "aws:kms",
      "--sse-kms-key-id",
      "deck-test-key",
    );
    const kmsHead = await json("s3api", "head-object", "--bucket", "cli-sse", "--key", "kms.bin");
    assert.equal(kmsHead.ServerSideEncryption, "aws:kms");
    assert.equal(kmsHead.SSEKMSKeyId, "arn:aws:kms:deck-test-key");
    const invented = await run(
      "s3api",
      "put-object",
      "--bucket",
      "cli-sse",
      "--key",
      "nope.bin",
      "--body",
      `${home}/customer.key`,
      "--server-side-encryption",
      "aws:kms",
      "--ssekms-key-id",
      "invented-key",
    );
    assert.equal(invented.ok, false);
    assert.match(invented.stderr, /kms:KeyNotFound|key with given key ID does not exist/);

    await aws(
      "s3",
      "cp",
      `${home}/body.bin`,
      "s3://cli-sse/c.bin",
      "--sse-c",
      "AES256",
      "--sse-c-key",
      `fileb://${home}/customer.key`,
    );
    const noKey = await run("s3api", "head-object", "--bucket", "cli-sse", "--key", "c.bin");
    assert.equal(noKey.ok, false, "no customer key, no access");
    await aws(
      "s3",
      "cp",
      "s3://cli-sse/c.bin",
      `${home}/c.back`,
      "--sse-c",
      "AES256",
      "--sse-c-key",
      `fileb://${home}/customer.key`,
    );
    sameBytes(await Deno.readFile(`${home}/c.back`), body, "SSE-C round trip");
  } finally {
    await f.close();
    await close();
  }
});
