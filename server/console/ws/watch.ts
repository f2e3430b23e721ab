/**
 * /ws/watch/{bucket}?prefix=&suffix=&events= (api-index §8): the bucket's events through ListenBucketNotification,
 * one message per event with mc's capitalised keys. `events` is a comma list of put, get and delete (all three
 * by default).
 */
import type { Context } from "hono";
import type { WatchMessage } from "../../lib/contract/tools.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { type NotificationRecord, openBucketNotifications } from "../../lib/s3/ops/listen.ts";
import { bucketParam } from "./params.ts";
import { mapMessages, relay } from "./relay.ts";

const EVENT_NAMES: Record<string, string> = {
  put: "s3:ObjectCreated:*",
  get: "s3:ObjectAccessed:*",
  delete: "s3:ObjectRemoved:*",
};

export interface WatchInput {
  bucket: string;
  prefix: string;
  suffix: string;
  events: string[];
}

export function parseWatchInput(c: Context<AppEnv>): WatchInput {
  const names = (c.req.query("events") || "put,get,delete").split(",").map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !EVENT_NAMES[n]);
  if (unknown.length) {
    throw ApiError.badRequest("events must be put, get or delete", `unknown: ${unknown.join(", ")}`);
  }
  return {
    bucket: bucketParam(c),
    prefix: c.req.query("prefix") ?? "",
    suffix: c.req.query("suffix") ?? "",
    events: [...new Set(names.map((n) => EVENT_NAMES[n]))],
  };
}

export function watchMessage(record: NotificationRecord): WatchMessage {
  return {
    Time: record.eventTime,
    Size: record.s3.object.size ?? 0,
    Type: record.eventName.replace(/^s3:/, ""),
    Path: `${record.s3.bucket.name}/${record.s3.object.key}`,
    UserMetadata: record.s3.object.userMetadata,
    Host: record.source?.host ?? "",
    Port: record.source?.port ?? "",
    UserAgent: record.source?.userAgent ?? "",
  };
}

export const watchRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: parseWatchInput,
    permission: (input) => ({ action: "s3:ListenBucketNotification", bucket: input.bucket }),
    async open({ client, input, signal }) {
      return mapMessages(await openBucketNotifications(client, input.bucket, input, signal), watchMessage);
    },
  });
