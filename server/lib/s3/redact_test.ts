import assert from "node:assert/strict";
import { redactedHeaderMap, redactHeader, redactQuery } from "./redact.ts";

Deno.test("redact: signatures, tokens and customer keys go, everything else stays as sent", () => {
  assert.equal(
    redactHeader(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0a1b2c",
    ),
    "AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=*REDACTED*",
  );
  assert.equal(redactHeader("authorization", "AWS AKIA:c2lnbmF0dXJl"), "AWS AKIA:*REDACTED*");
  const headers = redactedHeaderMap(
    new Headers({
      "X-Amz-Server-Side-Encryption-Customer-Key": "a2V5",
      "x-amz-server-side-encryption-customer-key-md5": "bWQ1",
      "x-amz-copy-source-server-side-encryption-customer-key": "a2V5",
      "x-amz-security-token": "token",
      cookie: "token=abc",
      "content-type": "text/plain",
    }),
  );
  assert.deepEqual(headers, {
    "Content-Type": "text/plain",
    Cookie: "*REDACTED*",
    "X-Amz-Copy-Source-Server-Side-Encryption-Customer-Key": "*REDACTED*",
    "X-Amz-Security-Token": "*REDACTED*",
    "X-Amz-Server-Side-Encryption-Customer-Key": "*REDACTED*",
    "X-Amz-Server-Side-Encryption-Customer-Key-Md5": "bWQ1",
  });
  assert.equal(
    redactQuery("X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc&x-amz-security-token=t%2Bk&prefix=a%26b&flag"),
    "X-Amz-Credential=AKIA%2F1&X-Amz-Signature=*REDACTED*&x-amz-security-token=*REDACTED*&prefix=a%26b&flag",
  );
  assert.equal(
    redactQuery("Action=AssumeRoleWithLDAPIdentity&LDAPPassword=hunter2"),
    "Action=AssumeRoleWithLDAPIdentity&LDAPPassword=*REDACTED*",
  );
  assert.equal(redactQuery(""), "");
});
