import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import type { BucketEvent } from "../../server/storage/events/records.ts";
import type { RequestRecord } from "../../server/storage/streams/requests.ts";
import { rejectsWith, startStorage } from "./fixture.ts";

Deno.test("storage streams: every request is observed once its body is sent; object changes publish MinIO event records", async () => {
  const f = await startStorage();
  const requests: RequestRecord[] = [];
  const events: BucketEvent[] = [];
  f.storage.streams.requests.sink((r) => requests.push(r));
  f.storage.streams.events.sink((e) => events.push(e));
  try {
    await s3.makeBucket(f.root, "pics");
    await s3.putBucketVersioning(f.root, "pics", { status: "Enabled" });
    const put = await s3.putObject(f.root, "pics", "2026/a b.jpg", "0123456789", {
      contentType: "image/jpeg",
      userMetadata: { camera: "x100" },
    });
    const got = await s3.getObject(f.root, "pics", "2026/a b.jpg");
    assert.equal(got.headers.get("content-length"), "10", "an observed body keeps its declared length");
    assert.equal(await got.text(), "0123456789");
    await s3.deleteObject(f.root, "pics", "2026/a b.jpg");
    await rejectsWith(s3.headObject(f.root, "pics", "missing"), "NoSuchKey");

    const byApi = (api: string) => requests.filter((r) => r.api === api);
    const putRecord = byApi("PutObject")[0];
    assert.equal(putRecord.kind, "s3");
    assert.equal(putRecord.bucket, "pics");
    assert.equal(putRecord.object, "2026/a b.jpg");
    assert.equal(putRecord.statusCode, 200);
    assert.equal(putRecord.rx, 10);
    assert.equal(putRecord.accessKey, f.storage.root.accessKey);
    const getRecord = byApi("GetObject")[0];
    assert.equal(getRecord.tx, 10, "the bytes actually sent");
    assert.ok(getRecord.durationNs >= getRecord.ttfbNs);
    const missing = byApi("HeadObject").at(-1)!;
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.errorCode, "NoSuchKey");
    assert.ok(byApi("PutBucketVersioning").length === 1);

    assert.deepEqual(events.map((e) => e.eventName), [
      "s3:ObjectCreated:Put",
      "s3:ObjectAccessed:Get",
      "s3:ObjectRemoved:DeleteMarkerCreated",
    ]);
    const created = events[0].record;
    assert.equal(created.eventSource, "minio:s3");
    assert.equal(created.s3.object.key, "2026/a b.jpg", "the raw key, as ListenBucketNotification sends it");
    assert.equal(created.s3.object.size, 10);
    assert.equal(created.s3.object.eTag, put.etag);
    assert.equal(created.s3.object.versionId, put.versionId);
    assert.equal(created.s3.object.contentType, "image/jpeg");
    assert.deepEqual(created.s3.object.userMetadata, {
      "content-type": "image/jpeg",
      "X-Amz-Meta-Camera": "x100",
    });
    assert.equal(created.userIdentity.principalId, f.storage.root.accessKey);
    assert.equal(
      created.responseElements["x-amz-request-id"],
      putRecord.requestId,
      "the request id the client saw",
    );
    const removed = events[2].record.s3.object;
    assert.equal(removed.size, undefined, "removals carry no size");
    assert.match(removed.versionId ?? "", /^[0-9a-f-]{36}$/, "the delete marker's version");
  } finally {
    await f.close();
  }
});
