/**
 * Which storages the object browser sends archives to (server/console/services/object_archive.ts): the
 * embedded one, and an external one whose liveness probe says it is MinIO (a Deck storage started on its
 * own says so too); any other S3 server, or one that does not answer, gets the files one by one
 * (islands/ObjectBrowser/archive_upload.ts).
 */
import assert from "node:assert/strict";
import { archiveSupport } from "../../server/console/services/object_archive.ts";
import { archiveTasks } from "../../islands/ObjectBrowser/archive_upload.ts";
import { startStorage } from "../s3/fixture.ts";
import { freePort } from "../storage_process.ts";

Deno.test("archive support: the embedded storage and MinIO yes, another server or none no", async () => {
  const storage = await startStorage();
  // Another S3 server: it answers the probe, but not as MinIO.
  const other = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () =>
      new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404, headers: { server: "AmazonS3" } }),
  );
  try {
    assert.equal(await archiveSupport({ url: "http://unused", embedded: true }, fetch), true);
    assert.equal(await archiveSupport({ url: storage.storage.url, embedded: false }, fetch), true);
    const otherUrl = `http://127.0.0.1:${other.addr.port}`;
    assert.equal(await archiveSupport({ url: otherUrl, embedded: false }, fetch), false);
    const nobody = `http://127.0.0.1:${await freePort()}`;
    assert.equal(await archiveSupport({ url: nobody, embedded: false }, fetch), false);
  } finally {
    await other.shutdown();
    await storage.close();
  }
});

Deno.test("archive tasks: one tar where the storage unpacks, the files one by one elsewhere", () => {
  const files = ["album/a b.txt", "album/δ/😀.txt"].map((path) => ({ path, file: new File([path], path) }));
  const place = { bucket: "b", prefix: "in/", direct: false };
  const one = archiveTasks({ ...place, archives: true }, files);
  assert.equal(one.length, 1);
  assert.deepEqual(one[0].archive, { prefix: "in/", files: 2 });
  assert.equal(one[0].key, "in/album/ (2 files, as an archive)");
  const each = archiveTasks({ ...place, archives: false }, files);
  assert.deepEqual(each.map((t) => [t.key, t.archive]), [["in/album/a b.txt", undefined], [
    "in/album/δ/😀.txt",
    undefined,
  ]]);
  // A folder path MinIO's header cannot carry travels in the entry names instead.
  assert.equal(archiveTasks({ ...place, prefix: "été/", archives: true }, files)[0].archive?.prefix, "");
});
