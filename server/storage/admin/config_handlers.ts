/** Config KV get/set/del/help and service restart (minio-protocol §3.8, §3.17). */
import { formatConfig } from "../config/server_config.ts";
import { subsystem, SUBSYSTEMS } from "../config/subsystems.ts";
import {
  type AdminContext,
  adminFail,
  decryptBody,
  empty,
  encryptedText,
  json,
  requireAction,
  requiredParam,
} from "./context.ts";

export async function getConfigKV(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ConfigUpdate");
  const key = requiredParam(ctx, "key");
  const [name, target] = key.split(":", 2);
  if (!subsystem(name)) throw adminFail("XMinioAdminConfigBadJSON", `unknown sub-system ${name}`, 400);
  const only = { subsystem: name, target: target === undefined ? undefined : target === "" ? "_" : target };
  return await encryptedText(ctx, formatConfig(ctx.config.tree, only) || `${name}\n`);
}

export async function setConfigKV(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ConfigUpdate");
  const { restart } = await ctx.config.set(await decryptBody(ctx));
  return empty(200, restart ? {} : { "x-minio-config-applied": "true" });
}

export async function delConfigKV(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ConfigUpdate");
  const { restart } = await ctx.config.delete(await decryptBody(ctx));
  return empty(200, restart ? {} : { "x-minio-config-applied": "true" });
}

export async function helpConfigKV(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ConfigUpdate");
  if (!ctx.query.has("subSys") || !ctx.query.has("key")) {
    throw adminFail("XMinioAdminInvalidArgument", "subSys and key are required", 400);
  }
  const name = ctx.query.get("subSys")!;
  const key = ctx.query.get("key")!;
  if (name === "") {
    return json({
      subSys: "",
      description: "",
      multipleTargets: false,
      keysHelp: SUBSYSTEMS.map((s) => ({
        key: s.name,
        description: s.description,
        optional: true,
        type: "string",
        multipleTargets: s.multipleTargets,
      })),
    });
  }
  const def = subsystem(name);
  if (!def) throw adminFail("XMinioAdminConfigBadJSON", `unknown sub-system ${name}`, 400);
  const keys = def.keys.filter((k) => !key || k.key === key);
  if (key && keys.length === 0) {
    throw adminFail("XMinioAdminConfigBadJSON", `unknown key ${key} for sub-system ${name}`, 400);
  }
  // madmin decodes this strictly: exactly these fields and no others.
  return json({
    subSys: def.name,
    description: def.description,
    multipleTargets: def.multipleTargets,
    keysHelp: keys.map((k) => ({
      key: k.key,
      description: k.description,
      optional: k.optional,
      type: k.type,
      multipleTargets: false,
    })),
  });
}

export async function service(ctx: AdminContext): Promise<Response> {
  const action = requiredParam(ctx, "action");
  if (action !== "restart" && action !== "stop") {
    throw adminFail("XMinioAdminInvalidArgument", "action must be restart or stop", 400);
  }
  requireAction(ctx, action === "restart" ? "admin:ServiceRestart" : "admin:ServiceStop");
  if (action === "stop") throw adminFail("NotImplemented", "The embedded server stops with the console", 501);
  // The embedded server "restarts" by reloading its configuration in-process.
  await ctx.restart();
  if (ctx.query.get("type") === "2") return json({ action, dryRun: false, results: [] });
  return empty();
}
