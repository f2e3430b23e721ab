/**
 * IAM changes that take several storage calls (a user's status, groups and policies) are all or nothing: an
 * unknown policy is refused before anything is written, and when the storage refuses a later step the console
 * undoes the earlier ones and reports the refusal.
 */
import assert from "node:assert/strict";
import { addCannedPolicy } from "../../server/lib/s3/admin/iam.ts";
import { runScenarios, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { READ_POLICY } from "./iam_policies.ts";

/** The user's state as the console reports it, for before/after comparisons. */
const userState = (body: unknown) => {
  const user = body as { status: string; memberOf: string[]; policy: string[] };
  return { status: user.status, memberOf: [...user.memberOf].sort(), policy: [...user.policy].sort() };
};
const groupNames = (body: unknown) => (body as { groups: string[] }).groups;

Deno.test("IAM: a user change that fails part way leaves nothing applied", async (t) => {
  const stack = await startStack();
  try {
    await addCannedPolicy(stack.admin, "read-reports", READ_POLICY);
    const root = await signInAsRoot(stack);
    await root.json("POST", "/api/v1/users", {
      accessKey: "erin",
      secretKey: "erin-secret-1",
      groups: ["devs"],
      policies: ["read-reports"],
    }, 201);
    // An administrator who may do everything but attach policies: checks pass, the last step fails at the storage.
    await root.json("POST", "/api/v1/policies", {
      name: "no-attach",
      policy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: ["admin:*", "s3:*"], Resource: ["arn:aws:s3:::*"] },
          { Effect: "Deny", Action: ["admin:AttachUserOrGroupPolicy"], Resource: ["arn:aws:s3:::*"] },
        ],
      }),
    }, 201);
    await root.json("POST", "/api/v1/users", {
      accessKey: "half-admin",
      secretKey: "half-admin-secret",
      groups: [],
      policies: ["no-attach"],
    }, 201);
    const halfAdmin = await signIn(stack, "half-admin", "half-admin-secret");
    const erinAsBefore = { status: "enabled", memberOf: ["devs"], policy: ["read-reports"] };

    await runScenarios(t, stack, [
      {
        name: "create with a new group and an unknown policy: refused",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: {
          accessKey: "dave",
          secretKey: "dave-secret-1",
          groups: ["brand-new"],
          policies: ["no-such-policy"],
        },
        status: 400,
        check: (body) =>
          assert.match(
            (body as { detailedMessage: string }).detailedMessage,
            /no-such-policy does not exist, so the user was not created/,
          ),
      },
      { name: "…no user dave", as: "root", method: "GET", path: "/api/v1/user?name=dave", status: 404 },
      {
        name: "…and no group brand-new",
        as: "root",
        method: "GET",
        path: "/api/v1/groups",
        status: 200,
        check: (body) => assert.deepEqual(groupNames(body), ["devs"]),
      },
      {
        name: "update status, groups and an unknown policy: refused",
        as: "root",
        method: "PUT",
        path: "/api/v1/user?name=erin",
        body: { status: "disabled", groups: ["ops-new"], policies: ["no-such-policy"] },
        status: 400,
      },
      {
        name: "…erin keeps her status, groups and policies",
        as: "root",
        method: "GET",
        path: "/api/v1/user?name=erin",
        status: 200,
        check: (body) => assert.deepEqual(userState(body), erinAsBefore),
      },
      {
        name: "…and no group ops-new",
        as: "root",
        method: "GET",
        path: "/api/v1/groups",
        status: 200,
        check: (body) => assert.deepEqual(groupNames(body), ["devs"]),
      },
      {
        name: "create whose last step the storage refuses: the user and its new group are undone",
        as: "none",
        client: halfAdmin,
        method: "POST",
        path: "/api/v1/users",
        body: {
          accessKey: "frank",
          secretKey: "frank-secret-1",
          groups: ["devs", "frank-team"],
          policies: ["read-reports"],
        },
        status: 403,
        check: (body) =>
          assert.equal(
            (body as { message: string }).message,
            "the user was not created: attaching the policies read-reports failed",
          ),
      },
      { name: "…no user frank", as: "root", method: "GET", path: "/api/v1/user?name=frank", status: 404 },
      {
        name: "the same refusal in German names the outcome and the step in German",
        as: "none",
        client: halfAdmin,
        method: "POST",
        path: "/api/v1/users",
        headers: { "accept-language": "de-DE,de;q=0.9" },
        body: { accessKey: "gerd", secretKey: "gerd-secret-1", groups: ["devs"], policies: ["read-reports"] },
        status: 403,
        check: (body) =>
          assert.equal(
            (body as { message: string }).message,
            "der Benutzer wurde nicht erstellt: das Zuweisen der Richtlinien read-reports ist fehlgeschlagen",
          ),
      },
      { name: "…no user gerd", as: "root", method: "GET", path: "/api/v1/user?name=gerd", status: 404 },
      {
        name: "…no group frank-team, devs unchanged",
        as: "root",
        method: "GET",
        path: "/api/v1/groups",
        status: 200,
        check: (body) => assert.deepEqual(groupNames(body), ["devs"]),
      },
      {
        name: "…devs has only its old member",
        as: "root",
        method: "GET",
        path: "/api/v1/group?name=devs",
        status: 200,
        check: (body) => assert.deepEqual((body as { members: string[] }).members, ["erin"]),
      },
      {
        name: "update whose last step the storage refuses: status and groups are undone",
        as: "none",
        client: halfAdmin,
        method: "PUT",
        path: "/api/v1/user?name=erin",
        body: { status: "disabled", groups: ["erin-team"], policies: ["readonly"] },
        status: 403,
        check: (body) =>
          assert.equal(
            (body as { message: string }).message,
            "the user was not changed: attaching the policies readonly failed",
          ),
      },
      {
        name: "…erin is as before",
        as: "root",
        method: "GET",
        path: "/api/v1/user?name=erin",
        status: 200,
        check: (body) => assert.deepEqual(userState(body), erinAsBefore),
      },
      {
        name: "…and no group erin-team",
        as: "root",
        method: "GET",
        path: "/api/v1/groups",
        status: 200,
        check: (body) => assert.deepEqual(groupNames(body), ["devs"]),
      },
    ]);
  } finally {
    await stack.close();
  }
});
