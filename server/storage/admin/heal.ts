/**
 * The admin heal API (minio-protocol §3.13): POST /heal/[<bucket>[/<prefix>]] starts (HealOpts body),
 * polls (clientToken, empty body), force-starts or force-stops a sequence; POST /background-heal/status.
 * A server reporting the FS backend has no heal routes, as MinIO's FS mode.
 */
import { defaultOpts, type HealOpts } from "../heal/sequences.ts";
import { type AdminContext, adminFail, json, requireAction } from "./context.ts";

const isFlag = (query: URLSearchParams, name: string) => query.has(name) && query.get(name) !== "false";

/** `heal/<bucket>/<prefix>` (the op path, trailing slash kept: it belongs to the prefix). */
export function heal(ctx: AdminContext, op: string): Promise<Response> {
  if (ctx.reportedBackend === "fs") {
    throw adminFail(
      "XMinioAdminVersionMismatch",
      "This 'admin' API is not supported by server in 'mode-server-fs'",
      426,
    );
  }
  requireAction(ctx, "admin:Heal");
  const rest = op.slice("heal".length).replace(/^\//, "");
  const slash = rest.indexOf("/");
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      throw adminFail("InvalidArgument", "The heal path is not valid URL encoding", 400);
    }
  };
  const bucket = decode(slash === -1 ? rest : rest.slice(0, slash));
  const prefix = slash === -1 ? "" : decode(rest.slice(slash + 1));
  const token = ctx.query.get("clientToken") ?? "";
  const forceStart = isFlag(ctx.query, "forceStart");
  const forceStop = isFlag(ctx.query, "forceStop");
  if ((token && (forceStart || forceStop)) || (forceStart && forceStop)) {
    throw adminFail(
      "InvalidRequest",
      "Invalid Request: clientToken, forceStart and forceStop cannot be combined",
      400,
    );
  }
  const sequences = ctx.live.heal;
  if (token) return Promise.resolve(json(sequences.status(bucket, prefix, token)));
  const settings = healOpts(ctx.body);
  if (forceStop) return Promise.resolve(json(sequences.stop(bucket, prefix, ctx.sourceIp)));
  return Promise.resolve(
    json(sequences.start(bucket, prefix, settings, { forceStart, clientAddress: ctx.sourceIp })),
  );
}

export function backgroundHealStatus(ctx: AdminContext): Promise<Response> {
  if (ctx.reportedBackend === "fs") {
    throw adminFail(
      "XMinioAdminVersionMismatch",
      "This 'admin' API is not supported by server in 'mode-server-fs'",
      426,
    );
  }
  requireAction(ctx, "admin:Heal");
  return Promise.resolve(json(ctx.live.heal.background()));
}

/** Every request without a client token carries HealOpts (madmin always sends them). */
function healOpts(body: Uint8Array): HealOpts {
  const text = new TextDecoder().decode(body).trim();
  if (!text) {
    throw adminFail(
      "XMinioRequestBodyParse",
      "The request body failed to parse: heal options are required",
      400,
    );
  }
  let value: Partial<HealOpts>;
  try {
    value = JSON.parse(text);
  } catch {
    throw adminFail(
      "XMinioRequestBodyParse",
      "The request body failed to parse: heal options must be JSON",
      400,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw adminFail(
      "XMinioRequestBodyParse",
      "The request body failed to parse: heal options must be a JSON object",
      400,
    );
  }
  const defaults = defaultOpts();
  const flag = (
    key: keyof HealOpts,
  ) => (typeof value[key] === "boolean" ? value[key] as boolean : defaults[key] as boolean);
  const scanMode = Number(value.scanMode ?? 1);
  if (![0, 1, 2].includes(scanMode)) throw adminFail("InvalidArgument", "scanMode must be 0, 1 or 2", 400);
  return {
    recursive: flag("recursive"),
    dryRun: flag("dryRun"),
    remove: flag("remove"),
    recreate: flag("recreate"),
    scanMode,
    updateParity: flag("updateParity"),
    nolock: flag("nolock"),
  };
}
