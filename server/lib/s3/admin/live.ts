/**
 * The streaming admin calls as madmin makes them: service trace (minio-protocol §3.14), console log (§3.15),
 * health info (§3.16) and heal (§3.13). Streams yield values until the signal aborts or the server ends.
 *
 * `open…` resolves once the server has answered the stream's request, which for trace and log means it has
 * subscribed: a call made after that is in the stream. The generators open on their first read.
 */
import type { S3Client } from "../client.ts";
import { S3Error } from "../errors.ts";
import { jsonValues } from "../json_stream.ts";
import { adminJson, adminSend } from "./request.ts";

export interface TraceHttpInfo {
  request: {
    time: string;
    proto: string;
    method: string;
    path: string;
    rawquery: string;
    headers: Record<string, string[]>;
    client: string;
  };
  response: { time: string; headers: Record<string, string[]>; statuscode: number };
  stats: { inputbytes: number; outputbytes: number; latency: number; timetofirstbyte: number };
}

/** madmin TraceInfo (v3). */
export interface TraceInfo {
  type: number;
  nodename: string;
  funcname: string;
  time: string;
  path: string;
  dur: number;
  /** Bytes a storage or os call moved (newer servers). */
  bytes?: number;
  error?: string;
  http?: TraceHttpInfo;
}

export interface TraceQuery {
  s3: boolean;
  internal: boolean;
  storage: boolean;
  os: boolean;
  errorsOnly: boolean;
  /** Go duration such as "0s" or "100ms". */
  threshold: string;
}

export async function openServiceTrace(
  client: S3Client,
  query: TraceQuery,
  signal: AbortSignal,
): Promise<AsyncIterable<TraceInfo>> {
  const res = await adminSend(client, {
    method: "GET",
    op: "trace",
    query: {
      s3: query.s3,
      internal: query.internal,
      storage: query.storage,
      os: query.os,
      err: query.errorsOnly,
      threshold: query.threshold,
    },
    signal,
  });
  return jsonValues<TraceInfo>(res);
}

export async function* serviceTrace(
  client: S3Client,
  query: TraceQuery,
  signal: AbortSignal,
): AsyncGenerator<TraceInfo> {
  yield* await openServiceTrace(client, query, signal);
}

/** madmin LogInfo. */
export interface LogInfo {
  deploymentid?: string;
  level?: string;
  errKind?: string;
  time?: string;
  api?: { name?: string; args?: { bucket?: string; object?: string; metadata?: Record<string, string> } };
  remotehost?: string;
  host?: string;
  requestID?: string;
  userAgent?: string;
  message?: string;
  error?: { message?: string; source?: string[]; variables?: Record<string, string> };
  ConsoleMsg?: string;
  node?: string;
}

export interface ConsoleLogQuery {
  node: string;
  limit: number;
  logType: string;
}

export async function openConsoleLog(
  client: S3Client,
  query: ConsoleLogQuery,
  signal: AbortSignal,
): Promise<AsyncIterable<LogInfo>> {
  const res = await adminSend(client, {
    method: "GET",
    op: "log",
    query: { node: query.node, limit: query.limit, logType: query.logType },
    signal,
  });
  return jsonValues<LogInfo>(res);
}

export async function* consoleLog(
  client: S3Client,
  query: ConsoleLogQuery,
  signal: AbortSignal,
): AsyncGenerator<LogInfo> {
  yield* await openConsoleLog(client, query, signal);
}

/** The data kinds madmin v3 asks health info for, each `true`. */
const HEALTH_KINDS = [
  "minioinfo",
  "minioconfig",
  "syscpu",
  "sysdrivehw",
  "sysosinfo",
  "sysmem",
  "sysnet",
  "sysprocess",
  "syserrors",
  "sysservices",
  "sysconfig",
];

/**
 * Health info: reads the stream to its end and returns the last (most complete) report; fails when the
 * report carries an error or an unknown version, as madmin does.
 */
export async function healthInfo(
  client: S3Client,
  deadline: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const res = await adminSend(client, {
    method: "GET",
    op: "healthinfo",
    query: { deadline, anonymize: "", ...Object.fromEntries(HEALTH_KINDS.map((k) => [k, true])) },
    signal,
  });
  let last: Record<string, unknown> | null = null;
  for await (const report of jsonValues<Record<string, unknown>>(res)) {
    if (typeof report.Code === "string") throw new S3Error(report.Code, String(report.Message ?? ""), 500);
    if (!["", "2", "3"].includes(String(report.version ?? ""))) {
      throw new S3Error("HealthInfoVersion", `unsupported health info version ${report.version}`, 500);
    }
    if (report.error) throw new S3Error("HealthInfoError", String(report.error), 500);
    last = report;
  }
  if (!last || !last.version) {
    throw new S3Error("HealthInfoEmpty", "the storage server sent no health report before the deadline", 504);
  }
  return last;
}

export interface HealOpts {
  recursive: boolean;
  dryRun: boolean;
  remove: boolean;
  recreate?: boolean;
  /** 1 normal, 2 deep. */
  scanMode: number;
}

export interface HealStartSuccess {
  clientToken: string;
  clientAddress: string;
  startTime: string;
}

export interface HealDriveInfo {
  uuid: string;
  endpoint: string;
  state: string;
}

export interface HealResultItem {
  resultId: number;
  type: "metadata" | "bucket" | "bucket-metadata" | "object";
  bucket: string;
  object: string;
  versionId?: string;
  detail: string;
  parityBlocks?: number;
  dataBlocks?: number;
  diskCount: number;
  setCount: number;
  before: { drives: HealDriveInfo[] | null };
  after: { drives: HealDriveInfo[] | null };
  objectSize: number;
}

export interface HealTaskStatus {
  summary: "not started" | "running" | "stopped" | "finished";
  detail: string;
  startTime: string;
  items: HealResultItem[] | null;
}

const healOp = (bucket: string, prefix: string) =>
  `heal/${encodeURIComponent(bucket)}${
    bucket && prefix ? `/${prefix.split("/").map(encodeURIComponent).join("/")}` : ""
  }`;

/** Skips the start's keep-alive spaces; an error written after streaming began comes back as JSON with a Code. */
async function healAnswer<T>(res: Response): Promise<T> {
  const text = (await res.text()).trim();
  const value = JSON.parse(text);
  if (typeof value?.Code === "string") throw new S3Error(value.Code, value.Message ?? "", 500);
  return value as T;
}

/** Starts (or force-starts / force-stops) a heal sequence on a path. */
export async function healStart(
  client: S3Client,
  bucket: string,
  prefix: string,
  opts: HealOpts,
  flags: { forceStart?: boolean; forceStop?: boolean } = {},
  signal?: AbortSignal,
): Promise<HealStartSuccess> {
  const res = await adminSend(client, {
    method: "POST",
    op: healOp(bucket, prefix),
    query: {
      forceStart: flags.forceStart ? "true" : undefined,
      forceStop: flags.forceStop ? "true" : undefined,
    },
    body: { recreate: false, updateParity: false, nolock: false, ...opts },
    signal,
  });
  return await healAnswer<HealStartSuccess>(res);
}

/** The results produced since the previous poll. */
export async function healStatus(
  client: S3Client,
  bucket: string,
  prefix: string,
  clientToken: string,
  signal?: AbortSignal,
): Promise<HealTaskStatus> {
  const res = await adminSend(client, {
    method: "POST",
    op: healOp(bucket, prefix),
    query: { clientToken },
    signal,
  });
  return await healAnswer<HealTaskStatus>(res);
}

export async function backgroundHealStatus(client: S3Client): Promise<Record<string, unknown>> {
  return await adminJson(client, { method: "POST", op: "background-heal/status" });
}
