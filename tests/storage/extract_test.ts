/**
 * MinIO's auto-extract upload on the embedded storage, over HTTP: Debian's AWS CLI sends the archive with
 * `--metadata` (x-amz-meta-snowball-auto-extract), our signed client sends the header spelled as MinIO's
 * documentation spells it (as `mc cp --attr` does). Archives come from GNU tar and Python's tarfile. Each
 * object goes through the write path: names, links and traversal, a broken archive, quota, object lock,
 * permissions, encryption and events are checked here.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { md5Hex } from "../../server/lib/s3/md5.ts";
import { rejectsWith, startStorage, type StorageFixture } from "../s3/fixture.ts";
import { awsCli } from "./awscli.ts";
import { KMS_KEY } from "../s3/sse_helpers.ts";
import { eventually } from "../eventually.ts";
import { craftedTar, type Files, folderOf, gnuTar } from "./extract_helpers.ts";

const FILES: Files = {
  "dossier été/vidéo 😀 +%#?.txt": "émoji 😀",
  "Ελληνικά/αρχείο.txt": "ελληνικά",
  "日本語/ファイル 名.txt": "日本語",
  "عربي/ملف.txt": "عربي",
  "plain/a b.json": '{"ok":true}',
};
const NAMES = Object.keys(FILES);

async function keysOf(f: StorageFixture, bucket: string, prefix = ""): Promise<string[]> {
  const page = await s3.listAllObjects(f.root, bucket, { prefix });
  return page.objects.map((o) => o.key).sort();
}

async function textOf(f: StorageFixture, bucket: string, key: string): Promise<string> {
  return await (await s3.getObject(f.root, bucket, key)).text();
}

/** `aws s3 cp` of an archive with MinIO's metadata; `extra` adds metadata entries. */
function cpArgs(file: string, target: string, extra: Record<string, string> = {}): string[] {
  const metadata = JSON.stringify({ "Snowball-Auto-Extract": "true", ...extra });
  return ["s3", "cp", file, target, "--metadata", metadata];
}

for (const gzip of [false, true]) {
  Deno.test(`auto-extract: the AWS CLI uploads a ${gzip ? "gzip" : "plain"} tar and gets one object a file`, async () => {
    const f = await startStorage();
    const cli = await awsCli(f);
    const dir = await folderOf(FILES);
    try {
      await s3.makeBucket(f.root, "unpack");
      const archive = await gnuTar(dir, NAMES, gzip);
      await cli.aws(
        ...cpArgs(archive, "s3://unpack/uploads/archive.tar", { "Minio-Snowball-Prefix": "in box+%" }),
      );
      assert.deepEqual(await keysOf(f, "unpack"), NAMES.map((n) => `in box+%/${n}`).sort());
      for (const name of NAMES) assert.equal(await textOf(f, "unpack", `in box+%/${name}`), FILES[name]);
      const head = await s3.headObject(f.root, "unpack", "in box+%/plain/a b.json");
      assert.equal(head.contentType, "application/json", "typed by its extension, as MinIO does");
      // Without the prefix header, names are the archive's own, from the bucket's root (MinIO's rule).
      await cli.aws(...cpArgs(archive, "s3://unpack/ignored/name.tar"));
      assert.ok((await keysOf(f, "unpack", "plain/")).includes("plain/a b.json"));
    } finally {
      await Deno.remove(dir, { recursive: true });
      await cli.close();
      await f.close();
    }
  });
}

Deno.test("auto-extract: the header as MinIO documents it, with directories and the ignore-dirs header", async () => {
  const f = await startStorage();
  const dir = await folderOf({});
  try {
    await s3.makeBucket(f.root, "docs");
    const archive = await craftedTar(dir, [
      ["./", "dir", ""],
      ["empty dir", "dir", ""],
      ["notes/ünïcödé 📝.txt", "file", "hello"],
    ]);
    const body = await Deno.readFile(archive);
    const sent = await f.root.send({
      method: "PUT",
      bucket: "docs",
      key: "notes.tar",
      body,
      // mc sends these as Go canonicalises them; header names are case-insensitive on the wire, and our
      // client signs them lowercased.
      headers: { "x-amz-meta-snowball-auto-extract": "true", "x-amz-meta-minio-snowball-prefix": "/team/" },
    });
    assert.equal(sent.status, 200);
    assert.equal(sent.headers.get("etag"), `"${md5Hex(body)}"`, "the whole archive's MD5, as MinIO answers");
    assert.deepEqual(await keysOf(f, "docs"), ["team/empty dir/", "team/notes/ünïcödé 📝.txt"]);
    await f.root.send({
      method: "PUT",
      bucket: "docs",
      key: "notes.tar",
      body,
      headers: {
        "x-amz-meta-snowball-auto-extract": "true",
        "x-amz-meta-minio-snowball-prefix": "flat",
        "x-amz-meta-minio-snowball-ignore-dirs": "true",
      },
    });
    assert.deepEqual(await keysOf(f, "docs", "flat/"), ["flat/notes/ünïcödé 📝.txt"]);
    // A gzip archive: the ETag covers the compressed bytes after the end of the tar too.
    const files = await folderOf({ "z/😀.txt": "zipped" });
    try {
      const gz = await Deno.readFile(await gnuTar(files, ["z/😀.txt"], true));
      const zipped = await f.root.send({
        method: "PUT",
        bucket: "docs",
        key: "z.tar.gz",
        body: gz,
        headers: { "x-amz-meta-snowball-auto-extract": "true", "x-amz-meta-minio-snowball-prefix": "gz" },
      });
      assert.equal(zipped.headers.get("etag"), `"${md5Hex(gz)}"`);
      assert.equal(await textOf(f, "docs", "gz/z/😀.txt"), "zipped");
    } finally {
      await Deno.remove(files, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await f.close();
  }
});

Deno.test("auto-extract: a broken archive keeps what came before the damage and answers MinIO's error", async () => {
  const f = await startStorage();
  const cli = await awsCli(f);
  const files: Files = {};
  for (let i = 0; i < 4; i++) files[`part ${i} 😀.txt`] = String(i).repeat(3000);
  const dir = await folderOf(files);
  try {
    await s3.makeBucket(f.root, "broken");
    const archive = await gnuTar(dir, Object.keys(files), false);
    const whole = await Deno.readFile(archive);
    // Cut inside the third file's body (pax header + ustar header + 3000 bytes padded per entry).
    const entry = 512 * 3 + 3072;
    await Deno.writeFile(`${dir}/cut.tar`, whole.subarray(0, entry * 2 + 512 * 3 + 1000));
    const cut = await cli.run(...cpArgs(`${dir}/cut.tar`, "s3://broken/cut.tar"));
    assert.equal(cut.ok, false);
    assert.match(cut.stderr, /BadRequest/);
    assert.match(cut.stderr, /tar file error: unexpected EOF after 2 successful object\(s\)/);
    assert.deepEqual(await keysOf(f, "broken"), ["part 0 😀.txt", "part 1 😀.txt"]);
    // A gzip stream damaged in its middle: a corrupt stream is refused the same way.
    const gz = await Deno.readFile(await gnuTar(dir, Object.keys(files), true));
    gz.fill(0x55, 40, 60);
    await Deno.writeFile(`${dir}/bad.tar.gz`, gz);
    const bad = await cli.run(...cpArgs(`${dir}/bad.tar.gz`, "s3://broken/bad.tar.gz", {
      "Minio-Snowball-Prefix": "gz",
    }));
    assert.equal(bad.ok, false);
    assert.match(bad.stderr, /BadRequest/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await cli.close();
    await f.close();
  }
});

Deno.test("auto-extract: entries never leave the prefix, links are skipped", async () => {
  const f = await startStorage();
  const dir = await folderOf({});
  const put = (archive: Uint8Array, prefix: string) =>
    f.root.send({
      method: "PUT",
      bucket: "jail",
      key: "x.tar",
      body: archive,
      headers: { "x-amz-meta-snowball-auto-extract": "true", "x-amz-meta-minio-snowball-prefix": prefix },
    });
  try {
    await s3.makeBucket(f.root, "jail");
    const links = await craftedTar(dir, [
      ["link to passwd", "symlink", "/etc/passwd"],
      ["hard link", "hardlink", "../../outside"],
      ["/absolute/été.txt", "file", "abs"],
      ["a/./b/../c.txt", "file", "c"],
      ["kept.txt", "file", "kept"],
    ]);
    await put(await Deno.readFile(links), "cell");
    assert.deepEqual(await keysOf(f, "jail"), ["cell/a/c.txt", "cell/absolute/été.txt", "cell/kept.txt"]);
    const climbing = await craftedTar(dir, [
      ["first.txt", "file", "1"],
      ["../escape 😀.txt", "file", "out"],
      ["after.txt", "file", "never"],
    ]);
    await rejectsWith(put(await Deno.readFile(climbing), "cell2"), "XMinioInvalidObjectName");
    assert.deepEqual(await keysOf(f, "jail", "cell2"), ["cell2/first.txt"]);
    assert.deepEqual((await keysOf(f, "jail")).filter((k) => k.includes("escape")), []);
    // With MinIO's ignore-errors header the climbing entry is skipped and the rest is stored.
    await f.root.send({
      method: "PUT",
      bucket: "jail",
      key: "x.tar",
      body: await Deno.readFile(climbing),
      headers: {
        "x-amz-meta-snowball-auto-extract": "true",
        "x-amz-meta-minio-snowball-prefix": "cell3",
        "x-amz-meta-minio-snowball-ignore-errors": "true",
      },
    });
    assert.deepEqual(await keysOf(f, "jail", "cell3"), ["cell3/after.txt", "cell3/first.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await f.close();
  }
});

Deno.test("auto-extract: quota and object lock apply to each object", async () => {
  const f = await startStorage();
  const cli = await awsCli(f);
  const files: Files = {
    "one.txt": "1".repeat(400),
    "two.txt": "2".repeat(400),
    "three.txt": "3".repeat(400),
  };
  const dir = await folderOf(files);
  try {
    await s3.makeBucket(f.root, "capped");
    const archive = await gnuTar(dir, ["one.txt", "two.txt", "three.txt"], true);
    const size = (await Deno.stat(archive)).size;
    // Room for the compressed archive but not for all three files: the third one is refused.
    await s3.setBucketQuota(f.root, "capped", Math.max(size, 1000));
    const over = await cli.run(...cpArgs(archive, "s3://capped/a.tar.gz"));
    assert.equal(over.ok, false);
    assert.match(over.stderr, /XMinioAdminBucketQuotaExceeded|quota/i);
    const kept = await keysOf(f, "capped");
    assert.ok(kept.length < 3 && kept.length >= 1, `some but not all stored: ${kept}`);
    // Object lock: the bucket's default retention lands on every extracted object.
    await s3.makeBucket(f.root, "locked", { objectLock: true });
    await s3.putObjectLockConfig(f.root, "locked", {
      enabled: true,
      defaultRetention: { mode: "GOVERNANCE", days: 1 },
    });
    await cli.aws(...cpArgs(archive, "s3://locked/a.tar.gz"));
    for (const key of ["one.txt", "two.txt", "three.txt"]) {
      assert.equal((await s3.getObjectRetention(f.root, "locked", key))?.mode, "GOVERNANCE");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await cli.close();
    await f.close();
  }
});

Deno.test("auto-extract: a user who may not write there is refused, object by object", async () => {
  const f = await startStorage();
  const dir = await folderOf({ "a.txt": "a", "locked/b.txt": "b", "c.txt": "c" });
  const client = (accessKey: string, secretKey: string) =>
    awsCli({ storage: { url: f.storage.url, root: { accessKey, secretKey } } });
  try {
    await s3.makeBucket(f.root, "shared");
    await s3.addUser(f.root, "reader", "reader-secret-1");
    await s3.setPolicy(f.root, ["readonly"], "reader", false);
    await s3.addUser(f.root, "inbox", "inbox-secret-1");
    await s3.addCannedPolicy(
      f.root,
      "inbox-only",
      JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: ["s3:PutObject"], Resource: ["arn:aws:s3:::shared/in/*"] },
          { Effect: "Deny", Action: ["s3:PutObject"], Resource: ["arn:aws:s3:::shared/in/locked/*"] },
        ],
      }),
    );
    await s3.setPolicy(f.root, ["inbox-only"], "inbox", false);
    const archive = await gnuTar(dir, ["a.txt", "locked/b.txt", "c.txt"], false);
    const reader = await client("reader", "reader-secret-1");
    const inbox = await client("inbox", "inbox-secret-1");
    try {
      const denied = await reader.run(
        ...cpArgs(archive, "s3://shared/in/a.tar", { "Minio-Snowball-Prefix": "in" }),
      );
      assert.equal(denied.ok, false);
      assert.match(denied.stderr, /AccessDenied/);
      // Without the prefix header the archive would land at the bucket's root, where inbox may not write.
      const root = await inbox.run(...cpArgs(archive, "s3://shared/in/a.tar"));
      assert.match(root.stderr, /AccessDenied/);
      assert.deepEqual(await keysOf(f, "shared"), []);
      // Under in/: a.txt is stored, in/locked/ is denied and stops the archive there.
      const partly = await inbox.run(
        ...cpArgs(archive, "s3://shared/in/a.tar", { "Minio-Snowball-Prefix": "in" }),
      );
      assert.equal(partly.ok, false);
      assert.match(partly.stderr, /AccessDenied/);
      assert.deepEqual(await keysOf(f, "shared"), ["in/a.txt"]);
    } finally {
      await reader.close();
      await inbox.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await f.close();
  }
});

Deno.test("auto-extract: each object is encrypted as the request asks, SSE-KMS is refused as MinIO does", async () => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  const cli = await awsCli(f);
  const dir = await folderOf({ "secret 😀.txt": "sealed", "deux/δύο.txt": "also sealed" });
  try {
    await s3.makeBucket(f.root, "vault");
    const archive = await gnuTar(dir, ["secret 😀.txt", "deux/δύο.txt"], true);
    await cli.aws(...cpArgs(archive, "s3://vault/a.tar.gz"), "--sse", "AES256");
    for (const key of ["secret 😀.txt", "deux/δύο.txt"]) {
      const head = await cli.json("s3api", "head-object", "--bucket", "vault", "--key", key);
      assert.equal(head.ServerSideEncryption, "AES256", key);
    }
    assert.equal(await textOf(f, "vault", "secret 😀.txt"), "sealed");
    const kms = await cli.run(
      ...cpArgs(archive, "s3://vault/b.tar.gz", { "Minio-Snowball-Prefix": "kms" }),
      "--sse",
      "aws:kms",
    );
    assert.equal(kms.ok, false);
    assert.match(kms.stderr, /NotImplemented/);
    assert.deepEqual(await keysOf(f, "vault", "kms/"), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await cli.close();
    await f.close();
  }
});

Deno.test("auto-extract: one ObjectCreated:Put event per stored object", async () => {
  const f = await startStorage();
  const dir = await folderOf({ "un.txt": "1", "deux 😀/δύο.txt": "2" });
  const stop = new AbortController();
  try {
    await s3.makeBucket(f.root, "heard");
    const records = s3.listenBucketNotification(f.root, "heard", {
      events: ["s3:ObjectCreated:*"],
      prefix: "",
      suffix: "",
    }, stop.signal);
    const first = records.next();
    await eventually("the listener to subscribe", () => f.storage.streams.events.subscriberCount > 0);
    const archive = await Deno.readFile(await gnuTar(dir, ["un.txt", "deux 😀/δύο.txt"], false));
    await f.root.send({
      method: "PUT",
      bucket: "heard",
      key: "a.tar",
      body: archive,
      headers: { "x-amz-meta-snowball-auto-extract": "true" },
    });
    const heard = [(await first).value!, (await records.next()).value!];
    assert.deepEqual(heard.map((r) => r.eventName), ["s3:ObjectCreated:Put", "s3:ObjectCreated:Put"]);
    assert.deepEqual(heard.map((r) => r.s3.object.key).sort(), ["deux 😀/δύο.txt", "un.txt"]);
  } finally {
    stop.abort();
    await Deno.remove(dir, { recursive: true });
    await f.close();
  }
});
