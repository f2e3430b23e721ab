import assert from "node:assert/strict";
import { parseErrorResponse } from "./errors.ts";

Deno.test("parses S3 XML, STS XML, admin JSON and HEAD errors", async () => {
  const s3 = await parseErrorResponse(
    new Response(
      `<?xml version="1.0"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>b</BucketName><RequestId>R1</RequestId></Error>`,
      { status: 404 },
    ),
  );
  assert.deepEqual([s3.code, s3.status, s3.bucket, s3.requestId], ["NoSuchBucket", 404, "b", "R1"]);
  const sts = await parseErrorResponse(
    new Response(
      `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type></Type><Code>AccessDenied</Code><Message>nope</Message></Error><RequestId>R2</RequestId></ErrorResponse>`,
      { status: 403 },
    ),
  );
  assert.deepEqual([sts.code, sts.message, sts.requestId], ["AccessDenied", "nope", "R2"]);
  const admin = await parseErrorResponse(
    Response.json({
      Code: "XMinioAdminNoSuchUser",
      Message: "The specified user does not exist.",
      RequestId: "R3",
    }, { status: 404 }),
  );
  assert.deepEqual([admin.code, admin.status], ["XMinioAdminNoSuchUser", 404]);
  const head = await parseErrorResponse(
    new Response(null, { status: 403, headers: { "x-minio-error-code": "AccessDenied" } }),
  );
  assert.equal(head.code, "AccessDenied");
  const unknown = await parseErrorResponse(new Response("gateway down", { status: 502 }));
  assert.equal(unknown.code, "HTTP502");
  assert.match(unknown.message, /502/);
});
