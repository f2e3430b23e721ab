/**
 * Group names and access keys with a "." or ".." segment: MinIO refuses every request naming them in a query,
 * so once made they could be neither read nor deleted and every bucket's Access tab failed. They are refused
 * when made: by the console's API (400 with the reason) and by the embedded storage's admin API (MinIO's
 * XMinioInvalidResourceName), while names merely holding dots keep working.
 */
import assert from "node:assert/strict";
import { S3Error } from "../../server/lib/s3/errors.ts";
import { updateGroupMembers } from "../../server/lib/s3/admin/iam.ts";
import { addServiceAccount } from "../../server/lib/s3/admin/service_accounts.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { signInAsRoot, startStack } from "../helpers.ts";

const DOT_SEGMENTS = [".", "..", "teams/../admins", "x/./y", "équipe 🎉\\..", " .. /up"];
const refusal = (label: string) => `${label} must not be "." or ".." or have such a part between slashes`;

Deno.test('IAM names with "." or ".." segments are refused when made, by the console and the storage', async (t) => {
  const stack = await startStack();
  try {
    const root = await signInAsRoot(stack);
    await makeBucket(stack.admin, "shared");

    await t.step("the console's API: 400 naming the field, nothing created", async () => {
      for (const name of DOT_SEGMENTS) {
        const group = await root.json<Record<string, unknown>>("POST", "/api/v1/groups", {
          group: name,
          members: [],
        }, 400);
        assert.equal(group.message, refusal("Group name"), name);
        assert.equal(typeof group.detailedMessage, "string");
        assert.equal(group.code, 400);
      }
      for (const accessKey of ["apps/../root", "./app", "app/.", "x\\..\\y"]) {
        const key = await root.json<{ message: string }>("POST", "/api/v1/service-account-credentials", {
          accessKey,
          secretKey: "dotdot-secret-1",
        }, 400);
        assert.equal(key.message, refusal("Access key"), accessKey);
      }
      const user = await root.json<{ message: string }>("POST", "/api/v1/users", {
        accessKey: "people/..",
        secretKey: "dotdot-secret-1",
      }, 400);
      assert.equal(user.message, refusal("Access key"));
      assert.deepEqual(
        (await root.json<{ groups: string[] }>("GET", "/api/v1/groups", undefined, 200)).groups ?? [],
        [],
      );
      await root.json("GET", "/api/v1/bucket-users/shared", undefined, 200);
    });

    await t.step("the storage's admin API answers as MinIO does to such a name", async () => {
      for (const name of DOT_SEGMENTS) {
        await assert.rejects(
          updateGroupMembers(stack.admin, { group: name, members: [], isRemove: false }),
          (e: S3Error) => e.code === "XMinioInvalidResourceName" && e.status === 400,
          name,
        );
      }
      await assert.rejects(
        addServiceAccount(stack.admin, { accessKey: "apps/../root", secretKey: "dotdot-secret-1" }),
        (e: S3Error) => e.code === "XMinioInvalidResourceName" && e.status === 400,
      );
    });

    await t.step("names that only hold dots work: made, read, listed on Access, deleted", async () => {
      await root.json("POST", "/api/v1/users", {
        accessKey: "first.last",
        secretKey: "first-last-secret",
        groups: [],
        policies: [],
      }, 201);
      for (const name of ["team.eu", "..hidden", "v1.2/…/ops + % # ?"]) {
        await root.json("POST", "/api/v1/groups", { group: name, members: ["first.last"] }, 201);
        const group = await root.json<{ members: string[] }>(
          "GET",
          `/api/v1/group?name=${encodeURIComponent(name)}`,
          undefined,
          200,
        );
        assert.deepEqual(group.members, ["first.last"], name);
      }
      await root.json("GET", "/api/v1/bucket-users/shared", undefined, 200);
      await root.json("PUT", `/api/v1/group?name=${encodeURIComponent("..hidden")}`, {
        members: [],
        status: "enabled",
      }, 200);
      await root.json("DELETE", `/api/v1/group?name=${encodeURIComponent("..hidden")}`, undefined, 204);
      const key = await root.json<{ accessKey: string }>("POST", "/api/v1/service-account-credentials", {
        accessKey: "app.v2..x",
        secretKey: "dotted-secret-1",
      }, 201);
      assert.equal(key.accessKey, "app.v2..x");
    });
  } finally {
    await stack.close();
  }
});
