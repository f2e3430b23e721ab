/**
 * An independent client: Debian's AWS CLI (/usr/bin/aws, never another aws on PATH) runs a scripted S3
 * sequence against the embedded server.
 */
import assert from "node:assert/strict";
import { startStorage } from "../s3/fixture.ts";
import { awsCli } from "./awscli.ts";

Deno.test("AWS CLI: buckets, objects, multipart, listing, versions, tags, policy, lifecycle, object lock, presign", async () => {
  const f = await startStorage();
  const { home, run, aws, json, close } = await awsCli(f);
  const awsFails = async (...args: string[]): Promise<string> => {
    const out = await run(...args);
    assert.equal(out.ok, false, `aws ${args.join(" ")} should fail`);
    return out.stderr;
  };
  try {
    await aws("s3", "mb", "s3://cli-bucket");
    assert.match(await aws("s3", "ls"), /cli-bucket/);
    await Deno.writeTextFile(`${home}/small.txt`, "0123456789abcdef");
    await aws("s3", "cp", `${home}/small.txt`, "s3://cli-bucket/dir/small.txt");
    await aws("s3", "cp", "s3://cli-bucket/dir/small.txt", `${home}/back.txt`);
    assert.equal(await Deno.readTextFile(`${home}/back.txt`), "0123456789abcdef");
    await aws(
      "s3api",
      "get-object",
      "--bucket",
      "cli-bucket",
      "--key",
      "dir/small.txt",
      "--range",
      "bytes=2-5",
      `${home}/range.txt`,
    );
    assert.equal(await Deno.readTextFile(`${home}/range.txt`), "2345");
    await aws("s3", "cp", "s3://cli-bucket/dir/small.txt", "s3://cli-bucket/copy.txt");
    assert.equal(
      (await json("s3api", "head-object", "--bucket", "cli-bucket", "--key", "copy.txt")).ContentLength,
      16,
    );

    const big = new Uint8Array(20 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    await Deno.writeFile(`${home}/big.bin`, big);
    await aws("s3", "cp", `${home}/big.bin`, "s3://cli-bucket/big.bin");
    const bigHead = await json("s3api", "head-object", "--bucket", "cli-bucket", "--key", "big.bin");
    assert.equal(bigHead.ContentLength, big.length);
    assert.match(bigHead.ETag, /-\d+"$/, "the CLI uploaded it in parts");
    await aws("s3", "cp", "s3://cli-bucket/big.bin", `${home}/big.back`);
    assert.deepEqual(await Deno.readFile(`${home}/big.back`), big);

    for (let i = 0; i < 7; i++) {
      await aws(
        "s3api",
        "put-object",
        "--bucket",
        "cli-bucket",
        "--key",
        `page/${i}`,
        "--body",
        `${home}/small.txt`,
      );
    }
    const paged = await json(
      "s3api",
      "list-objects-v2",
      "--bucket",
      "cli-bucket",
      "--prefix",
      "page/",
      "--page-size",
      "2",
    );
    assert.equal(paged.Contents.length, 7, "the CLI followed continuation tokens");
    const grouped = await json("s3api", "list-objects-v2", "--bucket", "cli-bucket", "--delimiter", "/");
    assert.deepEqual(grouped.CommonPrefixes.map((p: { Prefix: string }) => p.Prefix), ["dir/", "page/"]);

    await aws(
      "s3api",
      "put-bucket-versioning",
      "--bucket",
      "cli-bucket",
      "--versioning-configuration",
      "Status=Enabled",
    );
    await aws(
      "s3api",
      "put-object",
      "--bucket",
      "cli-bucket",
      "--key",
      "copy.txt",
      "--body",
      `${home}/big.bin`,
    );
    await aws("s3", "rm", "s3://cli-bucket/copy.txt");
    const versions = await json(
      "s3api",
      "list-object-versions",
      "--bucket",
      "cli-bucket",
      "--prefix",
      "copy.txt",
    );
    assert.equal(versions.Versions.length, 2);
    assert.equal(versions.DeleteMarkers.length, 1);

    await aws(
      "s3api",
      "put-object-tagging",
      "--bucket",
      "cli-bucket",
      "--key",
      "dir/small.txt",
      "--tagging",
      "TagSet=[{Key=team,Value=ops}]",
    );
    assert.deepEqual(
      (await json("s3api", "get-object-tagging", "--bucket", "cli-bucket", "--key", "dir/small.txt")).TagSet,
      [{ Key: "team", Value: "ops" }],
    );
    await aws(
      "s3api",
      "put-bucket-tagging",
      "--bucket",
      "cli-bucket",
      "--tagging",
      "TagSet=[{Key=env,Value=test}]",
    );
    assert.deepEqual((await json("s3api", "get-bucket-tagging", "--bucket", "cli-bucket")).TagSet, [{
      Key: "env",
      Value: "test",
    }]);

    const anonymousUrl = `${f.storage.url}/cli-bucket/dir/small.txt`;
    assert.equal(await fetch(anonymousUrl).then(async (r) => (await r.body?.cancel(), r.status)), 403);
    const policy = JSON.stringify({
      Version: "2012-10-17",
      Statement: [{
        Effect: "Allow",
        Principal: { AWS: ["*"] },
        Action: ["s3:GetObject"],
        Resource: ["arn:aws:s3:::cli-bucket/dir/*"],
      }],
    });
    await aws("s3api", "put-bucket-policy", "--bucket", "cli-bucket", "--policy", policy);
    assert.equal(await (await fetch(anonymousUrl)).text(), "0123456789abcdef");

    const lifecycle = JSON.stringify({
      Rules: [{
        ID: "expire-pages",
        Status: "Enabled",
        Filter: { Prefix: "page/" },
        Expiration: { Days: 3 },
      }],
    });
    await aws(
      "s3api",
      "put-bucket-lifecycle-configuration",
      "--bucket",
      "cli-bucket",
      "--lifecycle-configuration",
      lifecycle,
    );
    assert.equal(
      (await json("s3api", "get-bucket-lifecycle-configuration", "--bucket", "cli-bucket")).Rules[0]
        .Expiration.Days,
      3,
    );

    await aws("s3api", "create-bucket", "--bucket", "cli-locked", "--object-lock-enabled-for-bucket");
    const until = new Date(Date.now() + 3600_000).toISOString();
    const locked = await json(
      "s3api",
      "put-object",
      "--bucket",
      "cli-locked",
      "--key",
      "record",
      "--body",
      `${home}/small.txt`,
      "--object-lock-mode",
      "COMPLIANCE",
      "--object-lock-retain-until-date",
      until,
    );
    assert.match(
      await awsFails(
        "s3api",
        "delete-object",
        "--bucket",
        "cli-locked",
        "--key",
        "record",
        "--version-id",
        locked.VersionId,
      ),
      /AccessDenied/,
    );
    const held = await json(
      "s3api",
      "put-object",
      "--bucket",
      "cli-locked",
      "--key",
      "held",
      "--body",
      `${home}/small.txt`,
    );
    await aws(
      "s3api",
      "put-object-legal-hold",
      "--bucket",
      "cli-locked",
      "--key",
      "held",
      "--version-id",
      held.VersionId,
      "--legal-hold",
      "Status=ON",
    );
    assert.equal(
      (await json(
        "s3api",
        "get-object-legal-hold",
        "--bucket",
        "cli-locked",
        "--key",
        "held",
        "--version-id",
        held.VersionId,
      )).LegalHold.Status,
      "ON",
    );
    assert.match(
      await awsFails(
        "s3api",
        "delete-object",
        "--bucket",
        "cli-locked",
        "--key",
        "held",
        "--version-id",
        held.VersionId,
      ),
      /AccessDenied/,
    );

    const presigned = (await aws("s3", "presign", "s3://cli-bucket/big.bin", "--expires-in", "300")).trim();
    const download = await fetch(presigned);
    assert.equal(download.status, 200);
    assert.equal((await download.arrayBuffer()).byteLength, big.length);

    await aws("s3", "rm", "s3://cli-bucket/page/", "--recursive");
    assert.equal(
      (await json("s3api", "list-objects-v2", "--bucket", "cli-bucket", "--prefix", "page/")).Contents,
      undefined,
    );
  } finally {
    await f.close();
    await close();
  }
});
