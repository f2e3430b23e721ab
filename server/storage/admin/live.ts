/**
 * The streaming admin calls: trace (minio-protocol §3.14), console log (§3.15) and health info (§3.16). Each
 * answers 200 with JSON lines and keep-alives; each ends its work when the client goes away.
 */
import { parseGoDuration } from "../../lib/http/duration.ts";
import { logInfoOf, logTypeFilter } from "../streams/console_log.ts";
import { jsonLinesResponse, mapStream, mergeStreams } from "../streams/json_lines.ts";
import {
  callTraceInfoOf,
  callWanted,
  parseTraceOptions,
  TRACE_TYPE,
  type TraceInfo,
  traceInfoOf,
  traceWanted,
} from "../streams/trace.ts";
import { type AdminContext, adminFail, requireAction } from "./context.ts";
import { healthReports, requestedTypes } from "./health_report.ts";

/** Records a slow trace reader may fall behind by before the oldest are dropped. */
const TRACE_BACKLOG = 1000;
const LOG_BACKLOG = 1000;
/** Default health-info deadline when none is given (MinIO's). */
const HEALTH_DEFAULT_DEADLINE_NS = 10e9;

export function trace(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ServerTrace");
  const parsed = parseTraceOptions(ctx.query);
  if (!parsed.ok) throw adminFail("InvalidArgument", parsed.message, 400);
  const options = parsed.options;
  const node = ctx.url.host;
  const { requests, storageCalls, osCalls } = ctx.live.streams;
  // Only the hubs of the wanted types are subscribed: the others keep building nothing.
  const sources: AsyncIterableIterator<TraceInfo>[] = [];
  const wants = (bits: number) => (options.types & bits) !== 0;
  if (wants(TRACE_TYPE.s3 | TRACE_TYPE.internal) || options.types === 0) {
    const subscription = requests.subscribe({
      capacity: TRACE_BACKLOG,
      filter: (record) => traceWanted(options, record),
    });
    sources.push(mapStream(subscription, (record) => traceInfoOf(record, node)));
  }
  for (const [bit, hub] of [[TRACE_TYPE.storage, storageCalls], [TRACE_TYPE.os, osCalls]] as const) {
    if (!wants(bit)) continue;
    const subscription = hub.subscribe({
      capacity: TRACE_BACKLOG,
      filter: (record) => callWanted(options, record),
    });
    sources.push(mapStream(subscription, (record) => callTraceInfoOf(record, node)));
  }
  // MinIO writes a space about once a second while idle.
  return Promise.resolve(
    jsonLinesResponse(sources.length === 1 ? sources[0] : mergeStreams(sources), { keepAliveMs: 1000 }),
  );
}

export function consoleLog(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ConsoleLog");
  const limitText = ctx.query.get("limit") ?? "";
  const limit = /^\d+$/.test(limitText) ? Number(limitText) : 10;
  const node = ctx.url.host;
  const wantedNode = ctx.query.get("node") ?? "";
  if (wantedNode && wantedNode !== node) {
    // Another node's log: this single node has none, and says so by sending nothing.
    const nothing = ctx.live.streams.log.subscribe({ capacity: 1, filter: () => false });
    return Promise.resolve(jsonLinesResponse(nothing, { keepAliveMs: 500 }));
  }
  const filter = logTypeFilter(ctx.query.get("logType") ?? "all");
  const history = ctx.live.logHistory.last(limit, filter).map((entry) => logInfoOf(entry, node));
  const subscription = ctx.live.streams.log.subscribe({ capacity: LOG_BACKLOG, filter });
  return Promise.resolve(
    jsonLinesResponse(mapStream(subscription, (entry) => logInfoOf(entry, node)), {
      keepAliveMs: 500,
      first: history,
    }),
  );
}

export function healthInfo(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:OBDInfo");
  const deadlineText = ctx.query.get("deadline") ?? "";
  const deadlineNs = deadlineText ? parseGoDuration(deadlineText) : HEALTH_DEFAULT_DEADLINE_NS;
  if (deadlineNs === null || deadlineNs <= 0) {
    throw adminFail(
      "InvalidRequest",
      `Invalid Request: deadline '${deadlineText}' is not a duration such as 1h0m0s`,
      400,
    );
  }
  const anonymize = ["standard", "strict"].includes(ctx.query.get("anonymize") ?? "");
  const types = requestedTypes(ctx.query);
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(), Math.min(deadlineNs / 1e6, 2 ** 31 - 1));
  const end = () => {
    clearTimeout(deadline);
    stop.abort();
  };
  return Promise.resolve(
    jsonLinesResponse(healthReports(ctx, stop.signal, { anonymize, types }), {
      keepAliveMs: 5000,
      onEnd: end,
    }),
  );
}
