/**
 * Deck's object endpoints for restricted users and deleted objects, over HTTP against the real embedded
 * storage: the folder's quiet versioning read, an object's detail with the parts a user may not read left
 * unknown, a deleted key's detail, the listing with deleted objects, and restoring an older version.
 */
import assert from "node:assert/strict";
import {
  deleteObject,
  getObject,
  listObjectVersions,
  makeBucket,
  putBucketVersioning,
  putObject,
} from "../../server/lib/s3/mod.ts";
import type { ObjectDetail, ObjectList } from "../../server/lib/contract/objects.ts";
import { runScenarios, signInAsRoot, startStack } from "../helpers.ts";

const KEY = "notes/Zażółć #1 + 50% ? 🦊.txt";
const q = encodeURIComponent(KEY);

Deno.test("object recovery and narrow rights over the API", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "shared");
    await putBucketVersioning(stack.admin, "shared", { status: "Enabled" });
    await putObject(stack.admin, "shared", KEY, "first", { tags: { team: "blue" } });
    await putObject(stack.admin, "shared", KEY, "second");
    await putObject(stack.admin, "shared", "notes/z.txt", "z", { tags: { a: "b" } });
    await deleteObject(stack.admin, "shared", KEY);
    const versions = (await listObjectVersions(stack.admin, "shared", { prefix: KEY })).versions;
    const [marker, second, first] = versions;
    assert.equal(marker.isDeleteMarker, true);
    const base = "/api/v1/buckets/shared/objects";
    const root = await signInAsRoot(stack);

    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: `${base}/versioning`, status: 401 },
      {
        name: "versioning the user may not read is unknown, not refused",
        as: "narrow",
        method: "GET",
        path: `${base}/versioning`,
        status: 200,
        check: (b) => assert.deepEqual(b, { is_versioned: null }),
      },
      {
        name: "versioning read by the owner",
        as: "root",
        method: "GET",
        path: `${base}/versioning`,
        status: 200,
        check: (b) => assert.deepEqual(b, { is_versioned: true }),
      },
      {
        name: "the usual read policy opens an object; what it may not read is unknown",
        as: "narrow",
        method: "GET",
        path: `${base}/detail?prefix=notes/z.txt`,
        status: 200,
        check: (b) => {
          const detail = b as ObjectDetail;
          assert.equal(detail.size, 1);
          assert.equal(detail.is_versioned, null);
          assert.equal(detail.locking, null);
          assert.equal(detail.tags, undefined);
          assert.deepEqual(detail.unreadable, ["tags", "legal_hold", "retention"]);
        },
      },
      {
        name: "a deleted key's detail is its delete marker",
        as: "root",
        method: "GET",
        path: `${base}/detail?prefix=${q}`,
        status: 200,
        check: (b) => {
          const detail = b as ObjectDetail;
          assert.equal(detail.is_delete_marker, true);
          assert.equal(detail.version_id, marker.versionId);
          assert.equal(detail.unreadable, undefined);
        },
      },
      {
        name: "a key that never existed is still not found",
        as: "root",
        method: "GET",
        path: `${base}/detail?prefix=${encodeURIComponent("notes/never.txt")}`,
        status: 404,
      },
      {
        name: "the listing with deleted objects: each key's latest version, a page at a time",
        as: "root",
        method: "GET",
        path: `${base}?prefix=notes/&limit=1&with_deleted=true`,
        status: 200,
        check: async (b) => {
          const seen: { name: string; deleted?: boolean }[] = [];
          let page = b as ObjectList;
          // Bounded: a marker sent back wrongly once restarted the listing at the same key forever.
          for (let pages = 1; pages <= 5; pages++) {
            assert.ok(page.objects.length > 0, "no empty page before the end");
            seen.push(...page.objects.map((o) => ({ name: o.name, deleted: o.is_delete_marker })));
            if (!page.next_token) break;
            assert.ok(pages < 5, "the listing ends");
            page = await root.json<ObjectList>(
              "GET",
              `${base}?prefix=notes/&limit=1&with_deleted=true&token=${page.next_token}`,
              undefined,
              200,
            );
          }
          assert.deepEqual(seen, [{ name: KEY, deleted: true }, { name: "notes/z.txt", deleted: false }]);
        },
      },
      {
        name: "restore without a version is refused",
        as: "root",
        method: "PUT",
        path: `${base}/restore?prefix=${q}`,
        status: 400,
      },
      {
        name: "restore needs the right to write",
        as: "narrow",
        method: "PUT",
        path: `${base}/restore?prefix=${q}&version_id=${first.versionId}`,
        status: 403,
      },
      {
        name: "restore needs a session",
        as: "none",
        method: "PUT",
        path: `${base}/restore?prefix=${q}`,
        status: 401,
      },
      {
        name: "restore an unknown version: not found, nothing written",
        as: "root",
        method: "PUT",
        path: `${base}/restore?prefix=${q}&version_id=00000000-0000-0000-0000-000000000000`,
        status: 404,
      },
      {
        name: "restore the first version: the object is back with it, its history kept",
        as: "root",
        method: "PUT",
        path: `${base}/restore?prefix=${q}&version_id=${first.versionId}`,
        status: 200,
        check: async () => {
          assert.equal(await (await getObject(stack.admin, "shared", KEY)).text(), "first");
          const after = (await listObjectVersions(stack.admin, "shared", { prefix: KEY })).versions;
          assert.equal(after.length, 4);
          assert.deepEqual(after.slice(1).map((v) => v.versionId), [
            marker.versionId,
            second.versionId,
            first.versionId,
          ]);
        },
      },
    ]);
  } finally {
    await stack.close();
  }
});
