/**
 * Policies API (api-index §4, spec 2 §7).
 *
 *   GET    /policies                 policies {name, policy}, total (offset, limit)
 *   POST   /policies                 name, policy → 201; validated first, creates or overwrites
 *   GET    /policy?name=             name, policy
 *   GET    /policy/detail?name=      the Policy detail screen's view model (Deck's; PolicyDetailView)
 *   DELETE /policy?name=             → 204
 *   GET    /policies/{name}/users    users holding it
 *   GET    /policies/{name}/groups   groups holding it
 */
import { Hono } from "hono";
import { AddPolicyInput } from "../../lib/contract/policies.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import * as policies from "../services/policies.ts";
import { policyDetail } from "../services/policy_detail.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { pageQuery, readJson, requiredQuery } from "./input.ts";

export function policiesApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      "/policies",
      async (c) => c.json(await policies.listPolicies(clientFor(deps, requireSession(c)), pageQuery(c))),
    )
    .post("/policies", async (c) => {
      const client = clientFor(deps, requireSession(c));
      return c.json(await policies.addPolicy(client, await readJson(c, AddPolicyInput)), 201);
    })
    .get(
      "/policy",
      async (c) =>
        c.json(await policies.getPolicy(clientFor(deps, requireSession(c)), requiredQuery(c, "name"))),
    )
    .get(
      "/policy/detail",
      async (c) => c.json(await policyDetail(clientFor(deps, requireSession(c)), requiredQuery(c, "name"))),
    )
    .delete("/policy", async (c) => {
      await policies.removePolicy(clientFor(deps, requireSession(c)), requiredQuery(c, "name"));
      return c.body(null, 204);
    })
    .get(
      "/policies/:name/users",
      async (c) =>
        c.json(await policies.usersWithPolicy(clientFor(deps, requireSession(c)), c.req.param("name"))),
    )
    .get(
      "/policies/:name/groups",
      async (c) =>
        c.json(await policies.groupsWithPolicy(clientFor(deps, requireSession(c)), c.req.param("name"))),
    );
}
