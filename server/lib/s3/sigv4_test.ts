import assert from "node:assert/strict";
import {
  chunkedLength,
  EMPTY_SHA256,
  hmac,
  presignUrl,
  sha256Hex,
  signatureOf,
  signedChunkStream,
  signHeaders,
  STREAMING_PAYLOAD,
  toHex,
  uriEncode,
  uriEncodeBytes,
} from "./sigv4.ts";

// Vectors A–G of minio-protocol §1.11.
const aws = { accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const awsDate = new Date("2013-05-24T00:00:00Z");

Deno.test("vector A: GET with header auth", async () => {
  const signed = await signHeaders({
    method: "GET",
    url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
    headers: { range: "bytes=0-9" },
    payloadHash: EMPTY_SHA256,
    credentials: aws,
    region: "us-east-1",
    service: "s3",
    date: awsDate,
  });
  assert.equal(signed.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  assert.match(signed.headers.authorization, /SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,/);
});

Deno.test("vector B: presigned GET", async () => {
  const url = await presignUrl({
    method: "GET",
    url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
    credentials: aws,
    region: "us-east-1",
    expiresSeconds: 86400,
    date: awsDate,
  });
  assert.equal(
    url.searchParams.get("X-Amz-Signature"),
    "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  );
});

Deno.test("vector C: streaming upload, spec and chunk signatures, encoded length", async () => {
  const signed = await signHeaders({
    method: "PUT",
    url: new URL("https://s3.amazonaws.com/examplebucket/chunkObject.txt"),
    headers: {
      "content-encoding": "aws-chunked",
      "content-length": "66824",
      "x-amz-decoded-content-length": "66560",
      "x-amz-storage-class": "REDUCED_REDUNDANCY",
    },
    payloadHash: STREAMING_PAYLOAD,
    credentials: aws,
    region: "us-east-1",
    service: "s3",
    date: awsDate,
  });
  assert.equal(signed.signature, "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
  const data = new Uint8Array(66560).fill(0x61);
  const stream = signedChunkStream(new Blob([data]).stream(), {
    signingKey: signed.signingKey,
    amzDate: signed.amzDate,
    scope: signed.scope,
    seedSignature: signed.signature,
    chunkSize: 65536,
  });
  const body = new TextDecoder().decode(await new Response(stream).arrayBuffer());
  assert.equal(body.length, 66824);
  assert.equal(chunkedLength(66560, 65536), 66824);
  const signatures = [...body.matchAll(/chunk-signature=([0-9a-f]{64})/g)].map((m) => m[1]);
  assert.deepEqual(signatures, [
    "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
    "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
    "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9",
  ]);
});

const minio = { accessKey: "minioadmin", secretKey: "minioadmin" };
const minioDate = new Date("2026-11-22T11:13:18Z");

Deno.test("vector D: madmin call with the empty region", async () => {
  const signed = await signHeaders({
    method: "GET",
    url: new URL("http://localhost:9000/minio/admin/v3/info?metrics=false"),
    headers: { "user-agent": "MinIO madmin-go" },
    payloadHash: EMPTY_SHA256,
    credentials: minio,
    region: "",
    service: "s3",
    date: minioDate,
  });
  assert.equal(
    signed.headers.authorization,
    "AWS4-HMAC-SHA256 Credential=minioadmin/20261122//s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=71f3dacbddac3af5e73db42c397676e9ec041c4cefd4bc89050663cd7df45126",
  );
});

Deno.test("vector E: session token and escaped query", async () => {
  const signed = await signHeaders({
    method: "PUT",
    url: new URL(
      "http://127.0.0.1:9000/minio/admin/v3/set-user-or-group-policy?policyName=readwrite%2Cdiagnostics&userOrGroup=some%20user&isGroup=false",
    ),
    headers: {},
    payloadHash: EMPTY_SHA256,
    credentials: { accessKey: "ACCESSKEY123", secretKey: "SECRET/KEY+abc", sessionToken: "tok.en" },
    region: "us-east-1",
    service: "s3",
    date: minioDate,
  });
  assert.equal(signed.signature, "a50e4dd5789224de785e966154418333613575dea30e28f6cbf0e09a6e215925");
});

Deno.test("vector F: STS AssumeRole without X-Amz-Content-Sha256", async () => {
  const body = "Action=AssumeRole&DurationSeconds=3600&Version=2011-06-15";
  const hash = await sha256Hex(body);
  assert.equal(hash, "ae8a5f5ec22398788172e69e073eeaf10d6dd90c65e314ea2058c8ffe15d647a");
  const signed = await signHeaders({
    method: "POST",
    url: new URL("http://localhost:9000/"),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payloadHash: hash,
    credentials: minio,
    region: "us-east-1",
    service: "sts",
    date: new Date("2026-11-22T11:13:29Z"),
    sendContentSha: false,
  });
  assert.equal(signed.signature, "15f78c8b91bbf9bc5622c2d51d1f54f0eb39a65a88ab6717d30c3e0f8d8196b7");
  assert.equal(signed.headers["x-amz-content-sha256"], undefined);
});

Deno.test("vector G: presigned GET with versionId and a space in the key", async () => {
  const url = await presignUrl({
    method: "GET",
    url: new URL("http://localhost:9000/mybucket/photos/a%20b.png?versionId=abc"),
    credentials: minio,
    region: "us-east-1",
    expiresSeconds: 3600,
    date: new Date("2026-11-22T11:13:29Z"),
  });
  assert.equal(
    url.searchParams.get("X-Amz-Signature"),
    "970a488602dd3fb5238965338a67f4a4f81895bade6e3170cd38bc33d0cedec3",
  );
  await assert.rejects(
    () => presignUrl({ method: "GET", url, credentials: minio, region: "", expiresSeconds: 604801 }),
    RangeError,
  );
});

Deno.test("names in any script encode as RFC 3986 bytes, the same on the quick path and byte by byte", () => {
  const names = [
    "plain-name_1.2~x",
    "folder/sub folder/a b.txt",
    "rapport+été 100% #1?.pdf",
    "数据/报告 2026.csv",
    "Ελληνικά/Ünïcødé!'()*",
    "emoji 🚀/😀.png",
    "tab\tnew\nline",
    "lone \ud800 surrogate",
    "",
  ];
  for (const name of names) {
    for (const keepSlash of [false, true]) {
      assert.equal(uriEncode(name, keepSlash), uriEncodeBytes(name, keepSlash), `${name} ${keepSlash}`);
    }
  }
  assert.equal(uriEncode("a b/c!'()*", true), "a%20b/c%21%27%28%29%2A");
  assert.equal(uriEncode("a/b"), "a%2Fb");
});

Deno.test("HMAC-SHA256 matches RFC 4231, keys shorter and longer than a block", () => {
  const text = (s: string) => new TextEncoder().encode(s);
  // Test case 2: a short key.
  assert.equal(
    toHex(hmac(text("Jefe"), "what do ya want for nothing?")),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  // Test case 6: a 131-byte key, hashed first; the same key object again (its pads are kept) gives the same.
  const long = new Uint8Array(131).fill(0xaa);
  const expected = "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54";
  for (let i = 0; i < 2; i++) {
    assert.equal(signatureOf(long, "Test Using Larger Than Block-Size Key - Hash Key First"), expected);
  }
});
