/**
 * Objects API scenarios (api-index §6, spec 3 §7.3) against the real embedded storage: the auth matrix,
 * a user limited to one prefix, awkward keys round-tripping exactly, paged and streamed listings, versions
 * and rewind, retention, tags, legal hold, and deletes that a lock refuses without deleting anything else.
 */
import assert from "node:assert/strict";
import { makeBucket, putBucketVersioning, putObject, putObjectLockConfig } from "../../server/lib/s3/mod.ts";
import type { ObjectDetail, ObjectList, RewindList } from "../../server/lib/contract/objects.ts";
import { createUser, runScenarios, type Scenario, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { eventually } from "../eventually.ts";

const AUTH_MATRIX: [string, string, unknown?][] = [
  ["GET", "/api/v1/buckets/photos/objects?prefix="],
  ["GET", "/api/v1/buckets/photos/objects?prefix=&limit=10"],
  ["DELETE", "/api/v1/buckets/photos/objects?path=a.txt"],
  ["POST", "/api/v1/buckets/photos/delete-objects", [{ path: "a.txt" }]],
  ["GET", "/api/v1/buckets/photos/rewind/2030-01-01T00:00:00Z?prefix="],
  ["GET", "/api/v1/buckets/photos/objects/download?prefix=a.txt"],
  ["GET", "/api/v1/buckets/photos/objects/detail?prefix=a.txt"],
  ["GET", "/api/v1/buckets/photos/objects/versions?prefix=a.txt"],
  ["PUT", "/api/v1/buckets/photos/objects/tags?prefix=a.txt&version_id=null", { tags: { a: "b" } }],
  ["PUT", "/api/v1/buckets/photos/objects/legalhold?prefix=a.txt&version_id=null", { status: "enabled" }],
  ["PUT", "/api/v1/buckets/photos/objects/retention?prefix=a.txt&version_id=null", {
    mode: "governance",
    expires: "2099-01-01T23:59:59Z",
  }],
  ["DELETE", "/api/v1/buckets/photos/objects/retention?prefix=a.txt&version_id=null"],
  ["GET", "/api/v1/buckets/photos/objects/zip?prefix=dir/"],
  ["POST", "/api/v1/buckets/photos/uploads", { key: "big.bin", size: 10 }],
];

const list = (body: unknown) => body as ObjectList;
const names = (body: unknown) => list(body).objects.map((o) => o.name);
/** Waits for the clock to pass `ms`, so what is written next has a later timestamp. */
const clockPast = (ms: number) => eventually(`the clock to pass ${ms}`, () => Date.now() > ms);

Deno.test("object endpoints: auth matrix, prefix-limited users and changes", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "photos");
    await makeBucket(stack.admin, "shared");
    await putObject(stack.admin, "photos", "a.txt", "alpha");
    await putObject(stack.admin, "shared", "team/plan.txt", "plan");
    await putObject(stack.admin, "shared", "secret/x.txt", "x");
    const matrix: Scenario[] = AUTH_MATRIX.flatMap(([method, path, body]) => [
      { name: "no session", as: "none" as const, method, path, body, status: 401 },
      { name: "user without the permission", as: "narrow" as const, method, path, body, status: 403 },
    ]);
    await runScenarios(t, stack, [
      ...matrix,
      {
        name: "share links need a session",
        as: "none",
        method: "GET",
        path: "/api/v1/share-links",
        status: 401,
      },
      {
        name: "a narrow user lists the bucket it may read",
        as: "narrow",
        method: "GET",
        path: "/api/v1/buckets/shared/objects?prefix=",
        status: 200,
        check: (b) => assert.deepEqual(names(b), ["secret/", "team/"]),
      },
      {
        name: "…and downloads from it",
        as: "narrow",
        method: "GET",
        path: "/api/v1/buckets/shared/objects/download?prefix=team%2Fplan.txt",
        status: 200,
        check: (b) => assert.equal(b, "plan"),
      },
      {
        name: "…but may not delete there: the storage's refusal comes back as a clear message",
        as: "narrow",
        method: "DELETE",
        path: "/api/v1/buckets/shared/objects?path=team%2Fplan.txt",
        status: 403,
        check: (b) => assert.equal((b as { message: string }).message, "access denied"),
      },
      {
        name: "a missing bucket is 404",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/nothing-here/objects?prefix=&limit=5",
        status: 404,
      },
      {
        name: "an empty folder lists as an empty list, never null",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/objects?prefix=none%2F",
        status: 200,
        check: (b) => assert.deepEqual(list(b), { objects: [], total: 0 }),
      },
      {
        name: "a bad page size is refused",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/objects?prefix=&limit=0",
        status: 400,
      },
      {
        name: "a bad rewind date is refused",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/rewind/yesterday?prefix=",
        status: 400,
      },
      {
        name: "a download needs its key",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/objects/download",
        status: 400,
      },
      {
        name: "a file type without a preview is refused",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/objects/download?prefix=a.html&preview=true",
        status: 400,
      },
      {
        name: "a missing object is 404",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/objects/download?prefix=missing.txt",
        status: 404,
      },
      {
        name: "delete-objects needs a list",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets/photos/delete-objects",
        body: { path: "a.txt" },
        status: 400,
      },
      {
        name: "tags must be a map of strings",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/photos/objects/tags?prefix=a.txt&version_id=null",
        body: { tags: { a: 1 } },
        status: 400,
      },
    ]);

    await t.step("a user allowed one prefix sees that prefix and a clear refusal elsewhere", async () => {
      await createUser(stack, "prefix-user", "prefix-secret-1", [{
        name: "team-only",
        document: {
          Version: "2012-10-17",
          Statement: [
            {
              Effect: "Allow",
              Action: ["s3:ListBucket"],
              Resource: ["arn:aws:s3:::shared"],
              Condition: { StringLike: { "s3:prefix": ["team/*"] } },
            },
            { Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::shared/team/*"] },
          ],
        },
      }]);
      const user = await signIn(stack, "prefix-user", "prefix-secret-1");
      assert.deepEqual(
        names(
          await user.json("GET", "/api/v1/buckets/shared/objects?prefix=team%2F&limit=100", undefined, 200),
        ),
        ["team/plan.txt"],
      );
      const refused = await user.json<{ message: string; detailedMessage: string }>(
        "GET",
        "/api/v1/buckets/shared/objects?prefix=secret%2F&limit=100",
        undefined,
        403,
      );
      assert.equal(refused.message, "access denied");
      assert.match(refused.detailedMessage, /Access Denied/);
      await user.json("GET", "/api/v1/buckets/shared/objects/download?prefix=secret%2Fx.txt", undefined, 403);
    });

    const root = await signInAsRoot(stack);

    await t.step("awkward keys round-trip exactly through listing, detail and download", async () => {
      const keys = [
        "dir/ünïcödé 名前.txt",
        "dir/space and %25 + # ?.txt",
        "dir/trailing/",
        `dir/${"k".repeat(1020)}`,
      ];
      for (const key of keys) await putObject(stack.admin, "photos", key, `content of ${key.length}`);
      const listed = names(
        await root.json(
          "GET",
          `/api/v1/buckets/photos/objects?prefix=${encodeURIComponent("dir/")}&limit=100`,
          undefined,
          200,
        ),
      );
      assert.deepEqual(new Set(listed), new Set(["dir/trailing/", ...keys.filter((k) => !k.endsWith("/"))]));
      for (const key of keys.filter((k) => !k.endsWith("/"))) {
        const detail = await root.json<ObjectDetail>(
          "GET",
          `/api/v1/buckets/photos/objects/detail?prefix=${encodeURIComponent(key)}`,
          undefined,
          200,
        );
        assert.equal(detail.name, key);
        const res = await root.request(
          "GET",
          `/api/v1/buckets/photos/objects/download?prefix=${encodeURIComponent(key)}`,
        );
        assert.equal(await res.text(), `content of ${key.length}`);
        assert.match(
          res.headers.get("content-disposition") ?? "",
          /^attachment; filename="[^"]*"; filename\*=UTF-8''/,
        );
      }
      // The folder-marker object itself (a key ending in "/") is listed inside its folder.
      assert.deepEqual(
        names(
          await root.json(
            "GET",
            `/api/v1/buckets/photos/objects?prefix=${encodeURIComponent("dir/trailing/")}&limit=10`,
            undefined,
            200,
          ),
        ),
        ["dir/trailing/"],
      );
    });

    await t.step(
      "listings page with the storage's continuation token, or stream whole for scripts",
      async () => {
        for (let i = 0; i < 25; i++) {
          await putObject(stack.admin, "photos", `page/${String(i).padStart(2, "0")}.txt`, "p");
        }
        await putObject(stack.admin, "photos", "page/sub/inner.txt", "i");
        const seen: string[] = [];
        let token = "";
        let pages = 0;
        do {
          const page = list(
            await root.json(
              "GET",
              `/api/v1/buckets/photos/objects?prefix=page%2F&limit=10${
                token ? `&token=${encodeURIComponent(token)}` : ""
              }`,
              undefined,
              200,
            ),
          );
          assert.ok(page.objects.length <= 10);
          seen.push(...page.objects.map((o) => o.name));
          token = page.next_token ?? "";
          pages++;
        } while (token);
        assert.equal(pages, 3);
        assert.equal(seen.length, 26);
        assert.ok(seen.includes("page/sub/"));
        const whole = list(
          await root.json("GET", "/api/v1/buckets/photos/objects?prefix=page%2F", undefined, 200),
        );
        assert.equal(whole.total, 26);
        assert.deepEqual(
          new Set(whole.objects.map((o) => o.name)),
          new Set(seen),
        );
        const flat = list(
          await root.json(
            "GET",
            "/api/v1/buckets/photos/objects?prefix=page%2F&recursive=true&limit=1000",
            undefined,
            200,
          ),
        );
        assert.ok(flat.objects.some((o) => o.name === "page/sub/inner.txt"), "recursive lists every key");
        await root.json(
          "GET",
          "/api/v1/buckets/photos/objects?prefix=page%2F&limit=10&token=forged",
          undefined,
          400,
        );
      },
    );

    await t.step("versions, the Versions list and the rewind view", async () => {
      await makeBucket(stack.admin, "history");
      await putBucketVersioning(stack.admin, "history", { status: "Enabled" });
      await putObject(stack.admin, "history", "doc.txt", "v1");
      await putObject(stack.admin, "history", "gone.txt", "soon deleted");
      // Versions need timestamps apart from the rewind instant (milliseconds, the storage's clock is this one).
      await clockPast(Date.now());
      const instant = new Date().toISOString();
      await clockPast(Date.parse(instant));
      await putObject(stack.admin, "history", "doc.txt", "v2");
      await putObject(stack.admin, "history", "new.txt", "later");
      await root.json("DELETE", "/api/v1/buckets/history/objects?path=gone.txt", undefined, 200);
      const versions = list(
        await root.json("GET", "/api/v1/buckets/history/objects/versions?prefix=doc.txt", undefined, 200),
      ).objects;
      assert.equal(versions.length, 2);
      assert.equal(versions[0].is_latest, true);
      const now = list(
        await root.json("GET", "/api/v1/buckets/history/objects?prefix=&limit=100", undefined, 200),
      );
      assert.deepEqual(now.objects.map((o) => o.name).sort(), ["doc.txt", "new.txt"]);
      const rewound = await root.json<RewindList>(
        "GET",
        `/api/v1/buckets/history/rewind/${encodeURIComponent(instant)}?prefix=`,
        undefined,
        200,
      );
      assert.deepEqual(rewound.objects.map((o) => [o.name, o.delete_flag]), [["doc.txt", false], [
        "gone.txt",
        false,
      ]]);
      assert.equal(
        rewound.objects[0].version_id,
        versions[1].version_id,
        "the version current at that instant",
      );
      const later = await root.json<RewindList>(
        "GET",
        `/api/v1/buckets/history/rewind/${encodeURIComponent(new Date().toISOString())}?prefix=`,
        undefined,
        200,
      );
      assert.deepEqual(
        later.objects.find((o) => o.name === "gone.txt")?.delete_flag,
        true,
        "deleted objects show as deleted",
      );
      const old = await root.request(
        "GET",
        `/api/v1/buckets/history/objects/download?prefix=doc.txt&version_id=${versions[1].version_id}`,
      );
      assert.equal(await old.text(), "v1");
    });

    await t.step(
      "retention, tags and legal hold show in the detail; a held version is not deleted, nor anything with it",
      async () => {
        await makeBucket(stack.admin, "locked", { objectLock: true });
        await putObjectLockConfig(stack.admin, "locked", { enabled: true });
        await putObject(stack.admin, "locked", "held.txt", "held");
        await putObject(stack.admin, "locked", "free.txt", "free");
        const held = await root.json<ObjectDetail>(
          "GET",
          "/api/v1/buckets/locked/objects/detail?prefix=held.txt",
          undefined,
          200,
        );
        assert.equal(held.is_versioned, true);
        assert.equal(held.locking, true);
        const q = `prefix=held.txt&version_id=${held.version_id}`;
        await root.json("PUT", `/api/v1/buckets/locked/objects/legalhold?${q}`, { status: "enabled" }, 200);
        await root.json("PUT", `/api/v1/buckets/locked/objects/tags?${q}`, {
          tags: { team: "blue", stage: "final" },
        }, 200);
        const endOfDay = new Date(Date.now() + 86400_000).toISOString().slice(0, 10) + "T23:59:59Z";
        await root.json("PUT", `/api/v1/buckets/locked/objects/retention?${q}`, {
          mode: "governance",
          expires: endOfDay,
        }, 200);
        let detail = await root.json<ObjectDetail>(
          "GET",
          `/api/v1/buckets/locked/objects/detail?${q}`,
          undefined,
          200,
        );
        assert.equal(detail.legal_hold_status, "ON");
        assert.deepEqual(detail.tags, { team: "blue", stage: "final" });
        assert.equal(detail.retention_mode, "governance");
        assert.equal(detail.retention_until_date?.slice(0, 19), endOfDay.slice(0, 19));
        const free = await root.json<ObjectDetail>(
          "GET",
          "/api/v1/buckets/locked/objects/detail?prefix=free.txt",
          undefined,
          200,
        );
        const refused = await root.json<{ detailedMessage: string }>(
          "POST",
          "/api/v1/buckets/locked/delete-objects",
          [
            { path: "free.txt", versionID: free.version_id },
            { path: "held.txt", versionID: held.version_id },
          ],
          403,
        );
        assert.match(refused.detailedMessage, /WORM protected/i, "the storage's own message");
        await root.json(
          "GET",
          `/api/v1/buckets/locked/objects/detail?prefix=free.txt&version_id=${free.version_id}`,
          undefined,
          200,
        );
        await root.json("PUT", `/api/v1/buckets/locked/objects/legalhold?${q}`, { status: "disabled" }, 200);
        await root.json("DELETE", `/api/v1/buckets/locked/objects/retention?${q}`, undefined, 200);
        detail = await root.json<ObjectDetail>(
          "GET",
          `/api/v1/buckets/locked/objects/detail?${q}`,
          undefined,
          200,
        );
        assert.equal(detail.legal_hold_status, "OFF");
        assert.equal(detail.retention_mode, undefined);
        await root.json("PUT", `/api/v1/buckets/locked/objects/retention?${q}`, {
          mode: "governance",
          expires: "2001-01-01T23:59:59Z",
        }, 400);
      },
    );

    await t.step(
      "deleting a folder deletes what it holds; Delete Selected takes objects and folders",
      async () => {
        for (const key of ["trash/a", "trash/b/c", "keep/d", "keep/e"]) {
          await putObject(stack.admin, "photos", key, "x");
        }
        await root.json(
          "DELETE",
          "/api/v1/buckets/photos/objects?path=trash%2F&recursive=true",
          undefined,
          200,
        );
        assert.deepEqual(
          names(
            await root.json("GET", "/api/v1/buckets/photos/objects?prefix=trash%2F&limit=10", undefined, 200),
          ),
          [],
        );
        await root.json("POST", "/api/v1/buckets/photos/delete-objects", [{ path: "keep/d" }, {
          path: "keep/",
          recursive: true,
        }], 200);
        assert.deepEqual(
          names(
            await root.json("GET", "/api/v1/buckets/photos/objects?prefix=keep%2F&limit=10", undefined, 200),
          ),
          [],
        );
      },
    );
  } finally {
    await stack.close();
  }
});
