/**
 * /ws/trace?calls=&threshold=&onlyErrors=&statusCode=&method=&funcname=&path= (api-index §8): the storage's
 * trace, S3 calls always included, in the original console's short form. Only the first non-empty of path,
 * statusCode, method and funcname filters, as the original did.
 */
import type { Context } from "hono";
import type { TraceMessage } from "../../lib/contract/tools.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { formatGoDuration } from "../../lib/http/duration.ts";
import { ApiError } from "../http/errors.ts";
import { openServiceTrace, type TraceInfo } from "../../lib/s3/admin/live.ts";
import { statusText } from "../../lib/http/status.ts";
import { mapMessages, relay } from "./relay.ts";

export interface TraceInput {
  internal: boolean;
  storage: boolean;
  os: boolean;
  onlyErrors: boolean;
  thresholdNs: number;
  filter: (message: TraceMessage, info: TraceInfo) => boolean;
}

export function parseTraceInput(c: Context<AppEnv>): TraceInput {
  const calls = (c.req.query("calls") ?? "").toLowerCase();
  const all = calls.includes("all");
  const thresholdText = c.req.query("threshold") ?? "";
  const thresholdNs = thresholdText === "" ? 0 : Number(thresholdText);
  if (!Number.isInteger(thresholdNs) || thresholdNs < 0) {
    throw ApiError.badRequest(
      "threshold must be a whole number, 0 or greater",
      `threshold is "${thresholdText}"`,
    );
  }
  const onlyErrors = (c.req.query("onlyErrors") ?? "no") === "yes";
  const [path, statusCode, method, funcname] = ["path", "statusCode", "method", "funcname"].map((name) =>
    (c.req.query(name) ?? "").trim()
  );
  let filter: TraceInput["filter"] = () => true;
  if (path) filter = (m) => m.path.toLowerCase().includes(path.toLowerCase());
  else if (statusCode) filter = (m) => String(m.statusCode) === statusCode;
  else if (method) filter = (_m, info) => info.http?.request.method === method;
  else if (funcname) filter = (m) => m.api.toLowerCase().includes(funcname.toLowerCase());
  return {
    internal: all || calls.includes("internal"),
    storage: all || calls.includes("storage"),
    os: all || calls.includes("os"),
    onlyErrors,
    thresholdNs,
    filter,
  };
}

/**
 * The short form. Storage and os calls (no `http`) have no status: statusCode 0, and statusMsg carries what
 * the call failed with ("" when it succeeded); their bytes count as downloaded for reads (`storage.Read*`,
 * `os.Read*`) and as uploaded otherwise.
 */
export function shortTrace(info: TraceInfo): TraceMessage {
  const status = info.http?.response.statuscode ?? 0;
  const callBytes = info.http ? 0 : info.bytes ?? 0;
  const reads = /^[a-z]+\.Read/.test(info.funcname);
  return {
    time: new Date(info.http?.request.time ?? info.time).toISOString().replace(/\.\d+Z$/, "Z"),
    api: info.funcname,
    path: info.http?.request.path ?? info.path,
    query: info.http?.request.rawquery ?? "",
    statusCode: status,
    statusMsg: info.http ? statusText(status) : info.error ?? "",
    host: info.http?.request.headers?.Host?.join("") ?? "",
    client: (info.http?.request.client ?? "").split(":")[0],
    callStats: {
      rx: info.http?.stats.inputbytes ?? (reads ? 0 : callBytes),
      tx: info.http?.stats.outputbytes ?? (reads ? callBytes : 0),
      duration: formatGoDuration(info.http?.stats.latency ?? info.dur),
      timeToFirstByte: formatGoDuration(info.http?.stats.timetofirstbyte ?? 0),
    },
  };
}

export const traceRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: parseTraceInput,
    permission: () => ({ action: "admin:ServerTrace" }),
    async open({ client, input, signal }) {
      const query = {
        s3: true,
        internal: input.internal,
        storage: input.storage,
        os: input.os,
        errorsOnly: input.onlyErrors,
        threshold: `${input.thresholdNs}ns`,
      };
      const infos = await openServiceTrace(client, query, signal);
      return mapMessages(infos, (info) => {
        const message = shortTrace(info);
        return input.filter(message, info) ? message : undefined;
      });
    },
  });
