/**
 * The User detail and Policy detail screens' view models (GET /api/v1/user/detail, GET /api/v1/policy/detail),
 * each what its page renders and what its island reads again after a change, against the real embedded
 * storage: no session, a user without IAM rights, a help-desk user who may read the user or policy but not
 * everything around it (those parts say "access denied" in their place), and an admin.
 */
import assert from "node:assert/strict";
import type { PolicyDetailView } from "../../server/lib/contract/policies.ts";
import type { UserDetailView } from "../../server/lib/contract/users.ts";
import { createUser, runScenarios, signIn, signInAsRoot, startStack } from "../helpers.ts";

const USER = "Zoë Ångström/ops + 50% #1?";
const GROUP = "analysts 📊 team";
const POLICY = "read-reports-读取";
const q = encodeURIComponent;

/** Reads users and policies, but may not list users, describe groups or see service accounts. */
const HELPDESK_POLICY = {
  name: "helpdesk",
  document: {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: ["admin:GetUser", "admin:GetPolicy", "admin:ListGroups", "admin:ListUserPolicies"],
      Resource: ["arn:aws:s3:::*"],
    }],
  },
};

Deno.test("API: user and policy detail view models, with an auth matrix", async (t) => {
  const stack = await startStack();
  try {
    const root = await signInAsRoot(stack);
    await root.json("POST", "/api/v1/policies", {
      name: POLICY,
      policy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::reports/*"] }],
      }),
    }, 201);
    await root.json("POST", "/api/v1/users", {
      accessKey: USER,
      secretKey: "zoe-secret-key-1",
      groups: [],
      policies: [POLICY],
    }, 201);
    await root.json("POST", "/api/v1/users", { accessKey: "carol", secretKey: "carol-secret-1" }, 201);
    await root.json("POST", "/api/v1/groups", { group: GROUP, members: ["carol"] }, 201);
    await root.request("PUT", `/api/v1/set-policy/${q(POLICY)}`, { entityName: GROUP, entityType: "group" });
    const key = await root.json<{ accessKey: string }>(
      "POST",
      `/api/v1/user/${q(USER)}/service-accounts`,
      { policy: "" },
      201,
    );
    await createUser(stack, "helpdesk", "helpdesk-secret-1", [HELPDESK_POLICY]);
    const helpdesk = await signIn(stack, "helpdesk", "helpdesk-secret-1");
    const userPath = `/api/v1/user/detail?name=${q(USER)}`;
    const policyPath = `/api/v1/policy/detail?name=${q(POLICY)}`;

    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: userPath, status: 401 },
      { name: "no session", as: "none", method: "GET", path: policyPath, status: 401 },
      {
        name: "no IAM rights: the user cannot be read",
        as: "narrow",
        method: "GET",
        path: userPath,
        status: 403,
      },
      { name: "no IAM rights", as: "narrow", method: "GET", path: policyPath, status: 403 },
      {
        name: "help desk: the user and the names for its dialogs, its service accounts denied",
        client: helpdesk,
        as: "none",
        method: "GET",
        path: userPath,
        status: 200,
        check: (b) => {
          const view = b as UserDetailView;
          assert.equal(view.user.accessKey, USER);
          assert.deepEqual(view.user.policy, [POLICY]);
          assert.deepEqual(view.groups, [GROUP]);
          assert.ok(view.policies.includes(POLICY));
          assert.deepEqual(view.serviceAccounts, []);
          assert.deepEqual(view.unavailable, { serviceAccounts: "access denied" });
          assert.deepEqual(view.failures.map((f) => [f.section, f.status]), [["Service Accounts", 403]]);
        },
      },
      {
        name: "help desk: the policy, who holds it denied in its place",
        client: helpdesk,
        as: "none",
        method: "GET",
        path: policyPath,
        status: 200,
        check: (b) => {
          const view = b as PolicyDetailView;
          assert.equal(view.policy.name, POLICY);
          assert.match(view.policy.policy, /reports\/\*/);
          assert.deepEqual(view.unavailable, { users: "access denied", groups: "access denied" });
          assert.deepEqual(view.failures.map((f) => f.section), ["Users", "Groups"]);
        },
      },
      {
        name: "admin: everything",
        as: "root",
        method: "GET",
        path: userPath,
        status: 200,
        check: (b) => {
          const view = b as UserDetailView;
          assert.deepEqual(view.serviceAccounts, [key.accessKey]);
          assert.equal(view.user.hasPolicy, true);
          assert.deepEqual(view.unavailable, {});
          assert.deepEqual(view.failures, []);
        },
      },
      {
        name: "admin: everything",
        as: "root",
        method: "GET",
        path: policyPath,
        status: 200,
        check: (b) => {
          const view = b as PolicyDetailView;
          assert.deepEqual(view.users, [USER]);
          assert.deepEqual(view.groups, [GROUP]);
          assert.deepEqual(view.unavailable, {});
        },
      },
      {
        name: "admin: a user that does not exist",
        as: "root",
        method: "GET",
        path: "/api/v1/user/detail?name=nobody",
        status: 404,
      },
      {
        name: "admin: a policy that does not exist",
        as: "root",
        method: "GET",
        path: "/api/v1/policy/detail?name=nothing",
        status: 404,
      },
      { name: "admin: no name", as: "root", method: "GET", path: "/api/v1/policy/detail", status: 400 },
    ]);
  } finally {
    await stack.close();
  }
});
