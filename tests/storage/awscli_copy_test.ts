/**
 * Debian's AWS CLI copies large objects server-side: `aws s3 cp s3://… s3://…` above its multipart threshold
 * is CreateMultipartUpload, UploadPartCopy with ranges, CompleteMultipartUpload.
 */
import assert from "node:assert/strict";
import { startStorage } from "../s3/fixture.ts";
import { pattern, sameBytes } from "../s3/sse_helpers.ts";
import { awsCli } from "./awscli.ts";

Deno.test("AWS CLI: a multipart server-side copy of a large object", async () => {
  const f = await startStorage();
  const { home, aws, json, close } = await awsCli(f, [
    "multipart_threshold = 5MB",
    "multipart_chunksize = 5MB",
  ]);
  try {
    await aws("s3", "mb", "s3://cli-copy");
    const body = pattern(12 * 1024 * 1024 + 321);
    await Deno.writeFile(`${home}/body.bin`, body);
    const source = "dossier été/vidéo 😀 +%#?.bin";
    await aws("s3", "cp", `${home}/body.bin`, `s3://cli-copy/${source}`);
    await aws("s3", "cp", `s3://cli-copy/${source}`, "s3://cli-copy/copie de vidéo.bin");
    const head = await json("s3api", "head-object", "--bucket", "cli-copy", "--key", "copie de vidéo.bin");
    assert.match(head.ETag, /-3"$/, "copied in three parts");
    assert.equal(head.ContentLength, body.length);
    await aws("s3", "cp", "s3://cli-copy/copie de vidéo.bin", `${home}/back.bin`);
    sameBytes(await Deno.readFile(`${home}/back.bin`), body);
  } finally {
    await f.close();
    await close();
  }
});
