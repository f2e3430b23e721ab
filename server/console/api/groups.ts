/**
 * Groups API (api-index §4).
 *
 *   GET    /groups          groups (names), total
 *   POST   /groups          group, members → 201
 *   GET    /group?name=     name, status, members, policy
 *   PUT    /group?name=     members, status
 *   DELETE /group?name=     → 204 (members are removed first)
 */
import { Hono } from "hono";
import { AddGroupInput, UpdateGroupInput } from "../../lib/contract/groups.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import * as groups from "../services/groups.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { pageQuery, readJson, requiredQuery } from "./input.ts";

export function groupsApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      "/groups",
      async (c) => c.json(await groups.listGroups(clientFor(deps, requireSession(c)), pageQuery(c))),
    )
    .post("/groups", async (c) => {
      const client = clientFor(deps, requireSession(c));
      await groups.addGroup(client, await readJson(c, AddGroupInput));
      return c.body(null, 201);
    })
    .get(
      "/group",
      async (c) =>
        c.json(await groups.getGroup(clientFor(deps, requireSession(c)), requiredQuery(c, "name"))),
    )
    .put("/group", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const name = requiredQuery(c, "name");
      return c.json(await groups.updateGroup(client, name, await readJson(c, UpdateGroupInput)));
    })
    .delete("/group", async (c) => {
      await groups.removeGroup(clientFor(deps, requireSession(c)), requiredQuery(c, "name"));
      return c.body(null, 204);
    });
}
