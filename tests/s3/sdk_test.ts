/**
 * An independent client: the AWS SDK for JavaScript v3 (@aws-sdk/client-s3, lib-storage, s3-presigned-post,
 * s3-request-presigner) with default settings against the embedded server. Today's SDK adds CRC32 checksums
 * to every upload by default (a header, or an aws-chunked trailer for streams), so these are the round
 * trips real applications make: put, multipart, POST policy, presigned parts, CORS, ranges and listings.
 */
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import {
  type ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checksumOf } from "../../server/lib/s3/checksums.ts";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const enc = (text: string) => new TextEncoder().encode(text);

Deno.test("AWS SDK v3: checksums on put, get and multipart, verified and stored", async (t) => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "sdk-sums" }));

    await t.step("a default put sends CRC32 in a header; GET with checksum mode returns it", async () => {
      await sdk.send(new PutObjectCommand({ Bucket: "sdk-sums", Key: "hello.txt", Body: "hello" }));
      const got = await sdk.send(
        new GetObjectCommand({ Bucket: "sdk-sums", Key: "hello.txt", ChecksumMode: "ENABLED" }),
      );
      assert.equal(await got.Body!.transformToString(), "hello");
      assert.equal(got.ChecksumCRC32, checksumOf("CRC32", "hello"));
      const head = await sdk.send(
        new HeadObjectCommand({ Bucket: "sdk-sums", Key: "hello.txt", ChecksumMode: "ENABLED" }),
      );
      assert.equal(head.ChecksumCRC32, checksumOf("CRC32", "hello"));
      const ranged = await sdk.send(
        new GetObjectCommand({
          Bucket: "sdk-sums",
          Key: "hello.txt",
          ChecksumMode: "ENABLED",
          Range: "bytes=1-3",
        }),
      );
      assert.equal(await ranged.Body!.transformToString(), "ell");
      assert.equal(ranged.ChecksumCRC32, undefined, "a ranged read carries no checksum");
    });

    await t.step(
      "a stream body goes aws-chunked with the checksum in an unsigned trailer, for every algorithm",
      async () => {
        for (
          const algorithm of ["CRC32", "CRC32C", "SHA1", "SHA256"] as const satisfies ChecksumAlgorithm[]
        ) {
          const data = enc(`streamed with ${algorithm} `.repeat(5000));
          const put = await sdk.send(
            new PutObjectCommand({
              Bucket: "sdk-sums",
              Key: `stream-${algorithm}`,
              Body: Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
              ContentLength: data.length,
              ChecksumAlgorithm: algorithm,
            }),
          );
          const field = `Checksum${algorithm}` as "ChecksumCRC32";
          assert.equal(put[field], checksumOf(algorithm, data), `${algorithm} echoed on PUT`);
          const got = await sdk.send(
            new GetObjectCommand({ Bucket: "sdk-sums", Key: `stream-${algorithm}`, ChecksumMode: "ENABLED" }),
          );
          assert.deepEqual(await got.Body!.transformToByteArray(), data);
          assert.equal(got[field], checksumOf(algorithm, data), `${algorithm} returned on GET`);
        }
      },
    );

    await t.step("a wrong checksum is refused with S3's error and nothing is stored", async () => {
      const error = await failsWith(
        sdk.send(
          new PutObjectCommand({
            Bucket: "sdk-sums",
            Key: "bad.txt",
            Body: "payload",
            ChecksumCRC32: checksumOf("CRC32", "other"),
          }),
        ),
        "XAmzContentChecksumMismatch",
      );
      assert.equal(error.$metadata.httpStatusCode, 400);
      await failsWith(sdk.send(new HeadObjectCommand({ Bucket: "sdk-sums", Key: "bad.txt" })), "NotFound");
      await failsWith(
        sdk.send(
          new PutObjectCommand({
            Bucket: "sdk-sums",
            Key: "bad.txt",
            Body: "payload",
            ChecksumSHA256: "not-base64",
          }),
        ),
        "InvalidArgument",
      );
    });

    await t.step("lib-storage's Upload sends parts with checksums and completes", async () => {
      const data = new Uint8Array(12 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
      const upload = new Upload({
        client: sdk,
        params: { Bucket: "sdk-sums", Key: "big.bin", Body: data },
        partSize: 5 * 1024 * 1024,
      });
      const done = await upload.done();
      assert.match(done.ETag ?? "", /-3"$/);
      const got = await sdk.send(
        new GetObjectCommand({ Bucket: "sdk-sums", Key: "big.bin", ChecksumMode: "ENABLED" }),
      );
      assert.deepEqual(await got.Body!.transformToByteArray(), data);
    });

    await t.step(
      "an upload created with CRC32C: parts, ListParts and the composite object checksum",
      async () => {
        const parts = [new Uint8Array(5 * 1024 * 1024).fill(1), enc("tail part")];
        const { UploadId } = await sdk.send(
          new CreateMultipartUploadCommand({
            Bucket: "sdk-sums",
            Key: "composite",
            ChecksumAlgorithm: "CRC32C",
          }),
        );
        const sent = [];
        for (const [index, body] of parts.entries()) {
          const res = await sdk.send(
            new UploadPartCommand({
              Bucket: "sdk-sums",
              Key: "composite",
              UploadId,
              PartNumber: index + 1,
              Body: body,
              ChecksumAlgorithm: "CRC32C",
            }),
          );
          assert.equal(res.ChecksumCRC32C, checksumOf("CRC32C", body));
          sent.push({ PartNumber: index + 1, ETag: res.ETag, ChecksumCRC32C: res.ChecksumCRC32C });
        }
        const listed = await sdk.send(
          new ListPartsCommand({ Bucket: "sdk-sums", Key: "composite", UploadId }),
        );
        assert.deepEqual(listed.Parts?.map((p) => p.ChecksumCRC32C), sent.map((p) => p.ChecksumCRC32C));
        await failsWith(
          sdk.send(
            new CompleteMultipartUploadCommand({
              Bucket: "sdk-sums",
              Key: "composite",
              UploadId,
              MultipartUpload: { Parts: [{ ...sent[0], ChecksumCRC32C: sent[1].ChecksumCRC32C }, sent[1]] },
            }),
          ),
          "InvalidPart",
        );
        const done = await sdk.send(
          new CompleteMultipartUploadCommand({
            Bucket: "sdk-sums",
            Key: "composite",
            UploadId,
            MultipartUpload: { Parts: sent },
          }),
        );
        assert.match(done.ChecksumCRC32C ?? "", /^[A-Za-z0-9+/]{6}==-2$/);
        const head = await sdk.send(
          new HeadObjectCommand({ Bucket: "sdk-sums", Key: "composite", ChecksumMode: "ENABLED" }),
        );
        assert.equal(head.ChecksumCRC32C, done.ChecksumCRC32C);
      },
    );
  } finally {
    await f.close();
  }
});

Deno.test("AWS SDK v3: POST policy uploads from a browser form", async (t) => {
  const { createPresignedPost } = await import("@aws-sdk/s3-presigned-post");
  const f = await startSdkStorage();
  const sdk = f.sdk;
  /** Posts the presigned form with `file` last, as browsers must. */
  const post = async (url: string, fields: Record<string, string>, file: Blob, filename = "upload.txt") => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("file", file, filename);
    return await fetch(url, { method: "POST", body: form, redirect: "manual" });
  };
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "sdk-forms" }));

    await t.step("a presigned form uploads the file with its metadata and answers 204", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "sdk-forms",
        Key: "inbox/${filename}",
        Conditions: [["starts-with", "$key", "inbox/"], ["content-length-range", 1, 1024], [
          "eq",
          "$Content-Type",
          "text/plain",
        ], ["starts-with", "$x-amz-meta-origin", ""]],
        Fields: { "Content-Type": "text/plain", "x-amz-meta-origin": "form test" },
        Expires: 600,
      });
      const res = await post(url, fields, new Blob(["from a form"]), "note 1.txt");
      assert.equal(res.status, 204, await res.text());
      assert.match(res.headers.get("etag") ?? "", /^"[0-9a-f]{32}"$/);
      const got = await sdk.send(new GetObjectCommand({ Bucket: "sdk-forms", Key: "inbox/note 1.txt" }));
      assert.equal(await got.Body!.transformToString(), "from a form");
      assert.equal(got.ContentType, "text/plain");
      assert.equal(got.Metadata?.origin, "form test");
    });

    await t.step("success_action_status 201 answers with PostResponse XML", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "sdk-forms",
        Key: "status.txt",
        Conditions: [{ success_action_status: "201" }],
        Fields: { success_action_status: "201" },
      });
      const res = await post(url, fields, new Blob(["x"]));
      assert.equal(res.status, 201);
      assert.match(await res.text(), /<PostResponse><Bucket>sdk-forms<\/Bucket><Key>status.txt<\/Key><ETag>/);
    });

    await t.step("a form breaking its policy is refused and stores nothing", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "sdk-forms",
        Key: "limited.txt",
        Conditions: [["content-length-range", 1, 10]],
      });
      let res = await post(url, fields, new Blob(["more than ten bytes"]));
      assert.equal(res.status, 400);
      assert.match(await res.text(), /<Code>EntityTooLarge<\/Code>/);
      res = await post(url, { ...fields, key: "elsewhere.txt" }, new Blob(["short"]));
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Policy Condition failed/);
      res = await post(url, { ...fields, "x-amz-meta-extra": "not in the policy" }, new Blob(["short"]));
      assert.equal(res.status, 403);
      assert.match(
        await res.text(),
        /X-Amz-Meta-Extra&quot; not specified in the policy|X-Amz-Meta-Extra" not specified in the policy/,
      );
      res = await post(url, { ...fields, "X-Amz-Signature": "0".repeat(64) }, new Blob(["short"]));
      assert.equal(res.status, 403);
      assert.match(await res.text(), /SignatureDoesNotMatch/);
      await failsWith(
        sdk.send(new HeadObjectCommand({ Bucket: "sdk-forms", Key: "limited.txt" })),
        "NotFound",
      );
      await failsWith(
        sdk.send(new HeadObjectCommand({ Bucket: "sdk-forms", Key: "elsewhere.txt" })),
        "NotFound",
      );
    });

    await t.step("an expired policy is refused", async () => {
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "sdk-forms",
        Key: "late.txt",
        Expires: 1,
      });
      const policy = JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(fields.Policy)));
      assert.ok(Date.parse(policy.expiration) > Date.now() - 60_000);
      // A policy the server reads as expired: signed over a past expiration.
      const past = await createPresignedPost(sdk, { Bucket: "sdk-forms", Key: "late.txt", Expires: -60 });
      const res = await post(url, past.fields, new Blob(["x"]));
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Policy expired/);
    });
  } finally {
    await f.close();
  }
});

Deno.test("AWS SDK v3: CORS rules, preflights and presigned part uploads from a browser origin", async (t) => {
  const { getSignedUrl } = await import("@aws-sdk/s3-request-presigner");
  const { DeleteBucketCorsCommand, GetBucketCorsCommand, PutBucketCorsCommand } = await import(
    "@aws-sdk/client-s3"
  );
  const f = await startSdkStorage();
  const sdk = f.sdk;
  const preflight = (path: string, origin: string, method: string, headers = "") =>
    fetch(`${f.storage.url}${path}`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        ...(headers ? { "access-control-request-headers": headers } : {}),
      },
    });
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "sdk-cors" }));
    await sdk.send(new CreateBucketCommand({ Bucket: "sdk-open" }));

    await t.step(
      "a bucket without rules follows the global setting (any origin, as MinIO's default)",
      async () => {
        await failsWith(
          sdk.send(new GetBucketCorsCommand({ Bucket: "sdk-open" })),
          "NoSuchCORSConfiguration",
        );
        const res = await preflight("/sdk-open/file", "https://console.example", "PUT", "content-type");
        assert.equal(res.status, 204);
        assert.equal(res.headers.get("access-control-allow-origin"), "https://console.example");
        assert.equal(res.headers.get("access-control-allow-methods"), "PUT");
        assert.equal(res.headers.get("access-control-allow-headers"), "content-type");
      },
    );

    await t.step("PutBucketCors rules decide preflights and actual requests of that bucket", async () => {
      await sdk.send(
        new PutBucketCorsCommand({
          Bucket: "sdk-cors",
          CORSConfiguration: {
            CORSRules: [{
              AllowedOrigins: ["https://*.example.com"],
              AllowedMethods: ["GET", "PUT"],
              AllowedHeaders: ["content-*"],
              ExposeHeaders: ["ETag"],
              MaxAgeSeconds: 600,
            }],
          },
        }),
      );
      const got = await sdk.send(new GetBucketCorsCommand({ Bucket: "sdk-cors" }));
      assert.deepEqual(got.CORSRules?.[0].AllowedOrigins, ["https://*.example.com"]);
      assert.deepEqual(got.CORSRules?.[0].ExposeHeaders, ["ETag"]);

      let res = await preflight("/sdk-cors/a.txt", "https://app.example.com", "PUT", "Content-Type");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example.com");
      assert.equal(res.headers.get("access-control-max-age"), "600");
      res = await preflight("/sdk-cors/a.txt", "https://evil.test", "PUT");
      assert.equal(res.status, 403);
      assert.match(await res.text(), /AccessForbidden/);
      res = await preflight("/sdk-cors/a.txt", "https://app.example.com", "DELETE");
      assert.equal(res.status, 403, "a method outside the rule");
      res = await preflight("/sdk-cors/a.txt", "https://app.example.com", "PUT", "x-custom");
      assert.equal(res.status, 403, "a header outside the rule");

      await sdk.send(new PutObjectCommand({ Bucket: "sdk-cors", Key: "a.txt", Body: "cors" }));
      const url = await getSignedUrl(sdk, new GetObjectCommand({ Bucket: "sdk-cors", Key: "a.txt" }), {
        expiresIn: 60,
      });
      const actual = await fetch(url, { headers: { origin: "https://app.example.com" } });
      assert.equal(await actual.text(), "cors");
      assert.equal(actual.headers.get("access-control-allow-origin"), "https://app.example.com");
      assert.equal(actual.headers.get("access-control-expose-headers"), "ETag");

      await sdk.send(new DeleteBucketCorsCommand({ Bucket: "sdk-cors" }));
      await failsWith(sdk.send(new GetBucketCorsCommand({ Bucket: "sdk-cors" })), "NoSuchCORSConfiguration");
    });

    await t.step("invalid rules are refused", async () => {
      await failsWith(
        sdk.send(
          new PutBucketCorsCommand({
            Bucket: "sdk-cors",
            CORSConfiguration: { CORSRules: [{ AllowedOrigins: ["*"], AllowedMethods: ["PATCH"] }] },
          }),
        ),
        "InvalidRequest",
      );
    });

    await t.step(
      "a presigned UploadPart URL takes a part PUT from a browser origin and exposes its ETag",
      async () => {
        const { UploadId } = await sdk.send(
          new CreateMultipartUploadCommand({ Bucket: "sdk-open", Key: "direct.bin" }),
        );
        const part = new Uint8Array(5 * 1024 * 1024).fill(9);
        const url = await getSignedUrl(
          sdk,
          new UploadPartCommand({ Bucket: "sdk-open", Key: "direct.bin", UploadId, PartNumber: 1 }),
          { expiresIn: 300 },
        );
        const put = await fetch(url, {
          method: "PUT",
          body: part,
          headers: { origin: "https://console.example" },
        });
        assert.equal(put.status, 200, await put.text());
        assert.equal(put.headers.get("access-control-allow-origin"), "https://console.example");
        assert.match(put.headers.get("access-control-expose-headers") ?? "", /Etag/);
        const etag = put.headers.get("etag")!;
        const listed = await sdk.send(
          new ListPartsCommand({ Bucket: "sdk-open", Key: "direct.bin", UploadId }),
        );
        assert.equal(listed.Parts?.[0].ETag, etag);
        await sdk.send(
          new CompleteMultipartUploadCommand({
            Bucket: "sdk-open",
            Key: "direct.bin",
            UploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: etag }] },
          }),
        );
        const head = await sdk.send(new HeadObjectCommand({ Bucket: "sdk-open", Key: "direct.bin" }));
        assert.equal(head.ContentLength, part.length);
      },
    );
  } finally {
    await f.close();
  }
});

Deno.test("AWS SDK v3: paginated listings, versions and multipart upload listings", async () => {
  const {
    paginateListObjectsV2,
    ListObjectVersionsCommand,
    ListMultipartUploadsCommand,
    PutBucketVersioningCommand,
    DeleteObjectCommand,
    AbortMultipartUploadCommand,
  } = await import("@aws-sdk/client-s3");
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "sdk-list" }));
    await sdk.send(
      new PutBucketVersioningCommand({ Bucket: "sdk-list", VersioningConfiguration: { Status: "Enabled" } }),
    );
    const keys = ["a b/1", "a b/2", "a b/ü %+#?.txt", "a b/sub/3", "top"];
    for (const key of keys) await sdk.send(new PutObjectCommand({ Bucket: "sdk-list", Key: key, Body: key }));
    await sdk.send(new PutObjectCommand({ Bucket: "sdk-list", Key: "a b/1", Body: "second version" }));
    await sdk.send(new DeleteObjectCommand({ Bucket: "sdk-list", Key: "a b/2" }));

    const seen: string[] = [];
    const prefixes: string[] = [];
    for await (
      const page of paginateListObjectsV2({ client: sdk, pageSize: 1 }, {
        Bucket: "sdk-list",
        Prefix: "a b/",
        Delimiter: "/",
      })
    ) {
      seen.push(...(page.Contents ?? []).map((c) => c.Key!));
      prefixes.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
    }
    assert.deepEqual(seen, ["a b/1", "a b/ü %+#?.txt"], "one key per page, the deleted one hidden");
    assert.deepEqual(prefixes, ["a b/sub/"]);

    const versions = await sdk.send(new ListObjectVersionsCommand({ Bucket: "sdk-list", Prefix: "a b/" }));
    assert.equal(versions.Versions?.filter((v) => v.Key === "a b/1").length, 2);
    assert.equal(versions.DeleteMarkers?.[0].Key, "a b/2");

    const { UploadId } = await sdk.send(
      new CreateMultipartUploadCommand({ Bucket: "sdk-list", Key: "pending/x" }),
    );
    const uploads = await sdk.send(
      new ListMultipartUploadsCommand({ Bucket: "sdk-list", Prefix: "pending/" }),
    );
    assert.deepEqual(uploads.Uploads?.map((u) => u.UploadId), [UploadId]);
    const more = [];
    for (const key of ["pending/y", "pending/z"]) {
      more.push(
        (await sdk.send(new CreateMultipartUploadCommand({ Bucket: "sdk-list", Key: key }))).UploadId,
      );
    }
    const first = await sdk.send(new ListMultipartUploadsCommand({ Bucket: "sdk-list", MaxUploads: 2 }));
    assert.equal(first.IsTruncated, true);
    assert.deepEqual(first.Uploads?.map((u) => u.Key), ["pending/x", "pending/y"]);
    const second = await sdk.send(
      new ListMultipartUploadsCommand({
        Bucket: "sdk-list",
        KeyMarker: first.NextKeyMarker,
        UploadIdMarker: first.NextUploadIdMarker,
      }),
    );
    assert.deepEqual(second.Uploads?.map((u) => u.Key), ["pending/z"]);
    await sdk.send(new AbortMultipartUploadCommand({ Bucket: "sdk-list", Key: "pending/x", UploadId }));
    for (const [i, key] of ["pending/y", "pending/z"].entries()) {
      await sdk.send(new AbortMultipartUploadCommand({ Bucket: "sdk-list", Key: key, UploadId: more[i] }));
    }
    assert.equal(
      (await sdk.send(new ListMultipartUploadsCommand({ Bucket: "sdk-list" }))).Uploads,
      undefined,
    );
  } finally {
    await f.close();
  }
});
