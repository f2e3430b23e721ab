/**
 * The contract of ListObjects for scripts (spec 3's Object model, api-index §6): a prefix naming exactly
 * one object lists it with its legal hold, retention and tags, for each version when versions are asked;
 * a folder's listing does not pay for those lookups. Against the real embedded storage with object locking.
 */
import assert from "node:assert/strict";
import type { ObjectItem, ObjectList } from "../../server/lib/contract/objects.ts";
import { makeBucket, putObject, putObjectTagging } from "../../server/lib/s3/mod.ts";
import { signInAsRoot, startStack } from "../helpers.ts";

const BUCKET = "locked";
const KEY = "contracts/2026 报告 ✓.pdf";

Deno.test("ListObjects for one object's name returns its legal hold, retention and tags", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, BUCKET, { objectLock: true });
    const until = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, ".000Z");
    const first = await putObject(stack.admin, BUCKET, KEY, "v1", { legalHold: false });
    const second = await putObject(stack.admin, BUCKET, KEY, "v2", {
      retention: { mode: "GOVERNANCE", until },
      legalHold: true,
      tags: { project: "Ελληνικά", owner: "zoë" },
    });
    await putObject(stack.admin, BUCKET, "contracts/other.txt", "x", { legalHold: true });
    await putObjectTagging(stack.admin, BUCKET, KEY, { stage: "draft" }, first.versionId);
    const root = await signInAsRoot(stack);
    const list = (query: string) =>
      root.json<ObjectList>("GET", `/api/v1/buckets/${BUCKET}/objects?${query}`, undefined, 200);
    const pick = (o: ObjectItem) => ({
      // A hold never set may be listed as OFF or left out, as MinIO does.
      legal_hold_status: o.legal_hold_status ?? "OFF",
      retention_mode: o.retention_mode,
      retention_until_date: o.retention_until_date && new Date(o.retention_until_date).toISOString(),
      tags: o.tags,
    });

    await t.step("the latest version, as a script lists it (whole listing, and one page)", async () => {
      for (
        const query of [`prefix=${encodeURIComponent(KEY)}`, `prefix=${encodeURIComponent(KEY)}&limit=10`]
      ) {
        const { objects } = await list(query);
        assert.deepEqual(objects.map((o) => o.name), [KEY]);
        assert.deepEqual(pick(objects[0]), {
          legal_hold_status: "ON",
          retention_mode: "governance",
          retention_until_date: until,
          tags: { project: "Ελληνικά", owner: "zoë" },
        });
      }
    });

    await t.step("every version of it, each with its own state", async () => {
      const { objects } = await list(`prefix=${encodeURIComponent(KEY)}&with_versions=true`);
      const byVersion = Object.fromEntries(objects.map((o) => [o.version_id, pick(o)]));
      assert.deepEqual(byVersion[second.versionId!], {
        legal_hold_status: "ON",
        retention_mode: "governance",
        retention_until_date: until,
        tags: { project: "Ελληνικά", owner: "zoë" },
      });
      assert.deepEqual(byVersion[first.versionId!], {
        legal_hold_status: "OFF",
        retention_mode: undefined,
        retention_until_date: undefined,
        tags: { stage: "draft" },
      });
    });

    await t.step("a folder's listing carries no lookups of its entries", async () => {
      const { objects } = await list("prefix=contracts%2F");
      const other = objects.find((o) => o.name === "contracts/other.txt")!;
      assert.equal(other.legal_hold_status, undefined, "its hold is ON, but not looked up");
      assert.equal(other.tags, undefined);
    });
  } finally {
    await stack.close();
  }
});
