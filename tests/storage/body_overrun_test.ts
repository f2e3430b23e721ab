/**
 * A body longer than its Content-Length (s3-tests' test_object_create_bad_contentlength_mismatch_below_aws2):
 * the storage reads the announced bytes and answers that request (the checksum boto3 sent does not match), and
 * only then refuses the byte left over. It used to send the bare "400 Bad Request" of the stray byte in place of
 * the answer, so clients saw no S3 error code. boto3 signs with V4 and V2 (body_overrun_boto3.py).
 */
import assert from "node:assert/strict";
import { startStorage } from "../s3/fixture.ts";
import { runBoto3Script } from "./python_boto3.ts";

Deno.test("boto3: a body past its Content-Length gets the request's own S3 error, and nothing is stored", async () => {
  const f = await startStorage();
  try {
    const out = await runBoto3Script(new URL("./body_overrun_boto3.py", import.meta.url).pathname, {
      S3_ENDPOINT: f.storage.url,
      S3_ACCESS_KEY: f.storage.root.accessKey,
      S3_SECRET_KEY: f.storage.root.secretKey,
    });
    // V4 signs the payload's SHA-256 (plain HTTP), V2 sends the CRC32 botocore adds: each is checked.
    const codes = { s3v4: "XAmzContentSHA256Mismatch", s3: "XAmzContentChecksumMismatch" };
    for (const [signature, code] of Object.entries(codes)) {
      assert.deepEqual(out[signature], { code, status: 400, stored: false, after: "bar" }, signature);
    }
  } finally {
    await f.close();
  }
});
