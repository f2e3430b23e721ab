/**
 * What the embedded storage refuses and answers as S3 and MinIO do: AWS-reserved bucket names, control
 * characters in service-account keys and group names, anonymous health checks, and upload directories a
 * crash left without their upload record.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { rejectsWith, startStorage } from "./fixture.ts";
import { signInAsRoot, startStack } from "../helpers.ts";

Deno.test("AWS-reserved bucket names are refused, by the storage and by the console", async () => {
  const stack = await startStack();
  try {
    const browser = await signInAsRoot(stack);
    for (const name of ["xn--bucket", "sthree-bucket", "bucket-s3alias", "bucket--ol-s3"]) {
      await rejectsWith(s3.makeBucket(stack.admin, name), "InvalidBucketName");
      const res = await browser.request("POST", "/api/v1/buckets", { name });
      assert.equal(res.status, 400, name);
      await res.body?.cancel();
    }
    await s3.makeBucket(stack.admin, "xn-bucket-s3");
  } finally {
    await stack.close();
  }
});

Deno.test("NUL and other control characters are refused in service-account keys and group names", async () => {
  const f = await startStorage();
  try {
    await s3.addUser(f.root, "owner", "owner-secret-1");
    await rejectsWith(
      s3.addServiceAccount(f.root, {
        targetUser: "owner",
        accessKey: "svc\u0000key",
        secretKey: "service-secret-1",
      }),
      "XMinioAdminInvalidAccessKey",
    );
    await rejectsWith(
      s3.addServiceAccount(f.root, {
        targetUser: "owner",
        accessKey: "svc-key",
        secretKey: "service\u0000secret",
      }),
      "XMinioAdminInvalidSecretKey",
    );
    await rejectsWith(
      s3.updateGroupMembers(f.root, { group: "team\u0000a", members: ["owner"], isRemove: false }),
      "XMinioAdminInvalidArgument",
    );
    await rejectsWith(
      s3.updateGroupMembers(f.root, { group: "team\na", members: ["owner"], isRemove: false }),
      "XMinioAdminInvalidArgument",
    );
    assert.deepEqual(await s3.listGroups(f.root), []);
  } finally {
    await f.close();
  }
});

Deno.test("anonymous health checks answer 200 with no body, as MinIO's", async () => {
  const f = await startStorage();
  try {
    for (
      const path of [
        "/minio/health/live",
        "/minio/health/ready",
        "/minio/health/cluster",
        "/minio/health/cluster/read",
      ]
    ) {
      for (const method of ["GET", "HEAD"]) {
        const res = await fetch(f.storage.url + path, { method });
        assert.equal(res.status, 200, `${method} ${path}`);
        assert.equal(await res.text(), "");
      }
    }
    assert.equal(
      (await fetch(`${f.storage.url}/minio/health/cluster`)).headers.get("x-minio-write-quorum"),
      "1",
    );
  } finally {
    await f.close();
  }
});

Deno.test("upload directories left without their upload record by a crash are removed at start", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-uploads-" });
  try {
    let storage = await startEmbeddedStorage({ dataDir, port: 0 });
    let client = new s3.S3Client({ endpoint: storage.url, credentials: storage.root });
    await s3.makeBucket(client, "uploads-bkt");
    const kept = await s3.createMultipartUpload(client, "uploads-bkt", "kept.bin");
    await storage.close();
    // What a crash between creating an upload's directory and writing its record leaves behind.
    const uploads = `${dataDir}/buckets/uploads-bkt/uploads`;
    const orphan = `${uploads}/0b5e7a44-1c1e-4a39-9d2b-5f2a9e6f4c11`;
    await Deno.mkdir(orphan, { recursive: true });
    storage = await startEmbeddedStorage({ dataDir, port: 0 });
    client = new s3.S3Client({ endpoint: storage.url, credentials: storage.root });
    try {
      const left = [];
      for await (const entry of Deno.readDir(uploads)) left.push(entry.name);
      assert.deepEqual(left, [kept], "only the recorded upload remains");
      await s3.abortMultipartUpload(client, "uploads-bkt", "kept.bin", kept);
      await s3.deleteBucket(client, "uploads-bkt");
    } finally {
      await storage.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
