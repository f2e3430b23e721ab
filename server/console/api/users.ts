/**
 * Users API (api-index §4).
 *
 *   GET    /users                 users (offset, limit)
 *   POST   /users                 create with groups and policies → 201
 *   GET    /user?name=            one user
 *   GET    /user/detail?name=     the User detail screen's view model (Deck's; UserDetailView)
 *   PUT    /user?name=            status, groups, optional policies
 *   DELETE /user?name=            → 204; 403 for yourself
 *   PUT    /users-groups-bulk     add users to groups
 *   PUT    /set-policy/{names}    set the policies of a user or group → 204 (no names: detach all)
 *   GET    /user/access-check     ?name=&action=&resource= → Allow/Deny and the deciding statement
 */
import { type Context, Hono } from "hono";
import {
  AddUserInput,
  BulkUsersGroupsInput,
  SetPolicyInput,
  UpdateUserInput,
} from "../../lib/contract/users.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { userDetail } from "../services/user_detail.ts";
import * as users from "../services/users.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { pageQuery, readJson, requiredQuery } from "./input.ts";

export function usersApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      "/users",
      async (c) => c.json({ users: await users.listUsers(clientFor(deps, requireSession(c)), pageQuery(c)) }),
    )
    .post("/users", async (c) => {
      const client = clientFor(deps, requireSession(c));
      return c.json(await users.addUser(client, await readJson(c, AddUserInput)), 201);
    })
    .get("/user/access-check", async (c) => {
      const client = clientFor(deps, requireSession(c));
      return c.json(
        await users.checkUserAccess(
          client,
          requiredQuery(c, "name"),
          requiredQuery(c, "action"),
          requiredQuery(c, "resource"),
        ),
      );
    })
    .get(
      "/user",
      async (c) => c.json(await users.getUser(clientFor(deps, requireSession(c)), requiredQuery(c, "name"))),
    )
    .get(
      "/user/detail",
      async (c) => c.json(await userDetail(clientFor(deps, requireSession(c)), requiredQuery(c, "name"))),
    )
    .put("/user", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const name = requiredQuery(c, "name");
      return c.json(await users.updateUser(client, name, await readJson(c, UpdateUserInput)));
    })
    .delete("/user", async (c) => {
      const session = requireSession(c);
      await users.removeUser(clientFor(deps, session), session.account, requiredQuery(c, "name"));
      return c.body(null, 204);
    })
    .put("/users-groups-bulk", async (c) => {
      const client = clientFor(deps, requireSession(c));
      await users.addUsersToGroups(client, await readJson(c, BulkUsersGroupsInput));
      return c.json({});
    })
    .put("/set-policy/:names", setPolicy)
    // No names: the Set Policies dialog saved with nothing ticked, which detaches every policy.
    .put("/set-policy/", setPolicy);

  async function setPolicy(c: Context<AppEnv>) {
    const client = clientFor(deps, requireSession(c));
    await users.setPolicy(client, c.req.param("names") ?? "", await readJson(c, SetPolicyInput));
    return c.body(null, 204);
  }
}
