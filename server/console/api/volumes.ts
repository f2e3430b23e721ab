/**
 * Operator mode's storage API (api-index §10): tenants' volume claims and DirectCSI drives.
 *
 *   GET  /list-pvcs                 volume claims of every tenant
 *   GET  /direct-csi/drives         drives (a failure means direct-csi is not installed)
 *   POST /direct-csi/drives/format  format drives ("YES, PROCEED" required)
 */
import { Hono } from "hono";
import { FormatDrivesInput } from "../../lib/contract/volumes.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import * as storage from "../services/volumes.ts";
import { readJson } from "./input.ts";
import { operatorOf } from "../session/operator.ts";

export function volumesApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get("/list-pvcs", async (c) => {
      const { op, token } = operatorOf(c, deps);
      return c.json({ pvcs: await storage.listPvcs(op, token) });
    })
    .get("/direct-csi/drives", async (c) => {
      const { op, token } = operatorOf(c, deps);
      return c.json({ drives: await storage.listDrives(op, token) });
    })
    .post("/direct-csi/drives/format", async (c) => {
      const { op, token } = operatorOf(c, deps);
      return c.json({
        formatIssuesList: await storage.formatDrives(op, token, await readJson(c, FormatDrivesInput)),
      });
    });
}
