/**
 * DeleteObjects and the other XML bodies through the AWS SDK v3: keys and tag values are taken byte for
 * byte (spaces, tabs, newlines, CR LF), and a versioned multi-delete leaves delete markers as MinIO does.
 */
import assert from "node:assert/strict";
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectTaggingCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
} from "@aws-sdk/client-s3";
import { startSdkStorage } from "./sdk_client.ts";

const KEYS = [
  " ",
  "  ",
  "_",
  "_ ",
  " lead",
  "lead",
  "trail ",
  "trail",
  "\ttab",
  "tab",
  "new\nline",
  "newline",
  "cr\r\nlf",
  "tail\n",
  "日本 語 ",
  "😀 +%#? ",
];

Deno.test("DeleteObjects removes exactly the keys sent, whitespace included", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "spaces" }));
    for (const key of KEYS) {
      await f.sdk.send(new PutObjectCommand({ Bucket: "spaces", Key: key, Body: `body of ${key}` }));
    }
    const listed = async () =>
      ((await f.sdk.send(new ListObjectsV2Command({ Bucket: "spaces" }))).Contents ?? []).map((o) => o.Key!);
    assert.deepEqual((await listed()).toSorted(), KEYS.toSorted(), "every key is stored as sent");

    const gone = [
      " ",
      "_ ",
      " lead",
      "trail ",
      "\ttab",
      "new\nline",
      "cr\r\nlf",
      "tail\n",
      "日本 語 ",
      "😀 +%#? ",
    ];
    const result = await f.sdk.send(
      new DeleteObjectsCommand({ Bucket: "spaces", Delete: { Objects: gone.map((Key) => ({ Key })) } }),
    );
    assert.deepEqual(result.Errors ?? [], []);
    assert.deepEqual((result.Deleted ?? []).map((d) => d.Key).toSorted(), gone.toSorted());
    assert.deepEqual(
      (await listed()).toSorted(),
      KEYS.filter((k) => !gone.includes(k)).toSorted(),
      'the look-alike keys ("_", "  ", "lead", "tab", …) are still there',
    );
  } finally {
    await f.close();
  }
});

Deno.test("tag keys and values keep their surrounding whitespace", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "tags" }));
    await f.sdk.send(new PutObjectCommand({ Bucket: "tags", Key: "t", Body: "x" }));
    const TagSet = [{ Key: " team ", Value: "  ops\t" }, { Key: "note", Value: "line one\nline two " }];
    await f.sdk.send(new PutObjectTaggingCommand({ Bucket: "tags", Key: "t", Tagging: { TagSet } }));
    const got = await f.sdk.send(new GetObjectTaggingCommand({ Bucket: "tags", Key: "t" }));
    assert.deepEqual(got.TagSet, TagSet);
  } finally {
    await f.close();
  }
});

Deno.test("a versioned multi-delete of a key that never existed leaves a delete marker", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "markers" }));
    await f.sdk.send(
      new PutBucketVersioningCommand({ Bucket: "markers", VersioningConfiguration: { Status: "Enabled" } }),
    );
    const result = await f.sdk.send(
      new DeleteObjectsCommand({ Bucket: "markers", Delete: { Objects: [{ Key: "never there" }] } }),
    );
    assert.equal(result.Deleted?.[0].DeleteMarker, true);
    const markerId = result.Deleted?.[0].DeleteMarkerVersionId;
    assert.match(markerId ?? "", /^[0-9a-f-]{36}$/);
    const versions = await f.sdk.send(new ListObjectVersionsCommand({ Bucket: "markers" }));
    assert.deepEqual(
      (versions.DeleteMarkers ?? []).map((m) => [m.Key, m.VersionId, m.IsLatest]),
      [["never there", markerId, true]],
    );
  } finally {
    await f.close();
  }
});

Deno.test("a suspended bucket answers writes without x-amz-version-id, as MinIO does", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "suspended" }));
    await f.sdk.send(
      new PutBucketVersioningCommand({ Bucket: "suspended", VersioningConfiguration: { Status: "Enabled" } }),
    );
    const versioned = await f.sdk.send(new PutObjectCommand({ Bucket: "suspended", Key: "a", Body: "1" }));
    assert.match(versioned.VersionId ?? "", /^[0-9a-f-]{36}$/);
    await f.sdk.send(
      new PutBucketVersioningCommand({
        Bucket: "suspended",
        VersioningConfiguration: { Status: "Suspended" },
      }),
    );
    const put = await f.sdk.send(new PutObjectCommand({ Bucket: "suspended", Key: "a", Body: "2" }));
    assert.equal(put.VersionId, undefined);
    const tagged = await f.sdk.send(
      new PutObjectTaggingCommand({ Bucket: "suspended", Key: "a", Tagging: { TagSet: [] } }),
    );
    assert.equal(tagged.VersionId, undefined);
    const versions = await f.sdk.send(new ListObjectVersionsCommand({ Bucket: "suspended" }));
    assert.deepEqual(
      (versions.Versions ?? []).map((v) => v.VersionId),
      ["null", versioned.VersionId],
      "the listing still names the null version",
    );
  } finally {
    await f.close();
  }
});
