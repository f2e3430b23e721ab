/**
 * What every notification target kind implements, and what they share: the event envelope MinIO sends
 * (minio-protocol-2 §1.3), the namespace/access formats (§1.6, §1.7), on/off and duration values of the
 * config KV, and a connection check with a deadline.
 */
import type { EventRecord } from "../events/records.ts";

/** ARN types (the `<type>` of arn:minio:sqs:<region>:<id>:<type>). */
export type TargetType =
  | "webhook"
  | "postgresql"
  | "mysql"
  | "redis"
  | "amqp"
  | "mqtt"
  | "nats"
  | "kafka"
  | "elasticsearch"
  | "nsq";

/** The envelope every target receives or derives its rows from (§1.3: capitalised keys, one record). */
export interface NotifyEvent {
  EventName: string;
  /** `<bucket>/<object key>`, the key unescaped. */
  Key: string;
  Records: [EventRecord];
}

/** One event to deliver: the envelope, and the same as JSON text (what message targets publish as is). */
export interface Delivery {
  event: NotifyEvent;
  line: string;
}

export interface Target {
  readonly type: TargetType;
  /** Config target name ("_" for the default target). */
  readonly id: string;
  /**
   * Delivers events in order. On failure throws DeliveryError saying how many leading events did arrive,
   * so the caller neither loses nor repeats any.
   */
  send(batch: Delivery[]): Promise<void>;
  /**
   * How long to let events gather before a send, for targets that take a whole batch in one round trip
   * (databases, brokers); 0 or absent for those that take events one by one (webhook, MQTT).
   */
  readonly lingerMs?: number;
  /** A real connection check (§1.8): Online when it passes. */
  isActive(): Promise<boolean>;
  close(): Promise<void>;
}

export class DeliveryError extends Error {
  constructor(message: string, readonly delivered: number) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** The gathering delay of batch-taking targets: a small cost in latency for far fewer round trips. */
export const BATCH_LINGER_MS = 10;

/** Keys of one target's configuration, as stored in the config KV (empty values absent). */
export type TargetConfig = Record<string, string>;

export const isOn = (value: string | undefined) => value === "on";

/** The record as namespace/access rows store it: `{"Records":[record]}` (§1.6). */
export const recordsDocument = (event: NotifyEvent) => JSON.stringify({ Records: event.Records });

/** Namespace format removes the row/key only for a real removal; every other event upserts it (§1.6). */
export const isRemoval = (event: Keyed) => event.EventName === "s3:ObjectRemoved:Delete";

export type Format = "namespace" | "access";
export const formatOf = (
  config: TargetConfig,
): Format => (config.format === "access" ? "access" : "namespace");

/** Parses MinIO durations: "10s", "5m", "1h", "2d" or a bare number of seconds; 0 when empty. */
export function durationSeconds(value: string | undefined): number {
  if (!value) return 0;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  return m[2] === "ms"
    ? n / 1000
    : m[2] === "m"
    ? n * 60
    : m[2] === "h"
    ? n * 3600
    : m[2] === "d"
    ? n * 86400
    : n;
}

/** `host:port` → parts; the port is required. */
export function hostPort(address: string, defaultPort?: number): { host: string; port: number } {
  const m = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address.trim());
  const port = m?.[2] ? Number(m[2]) : defaultPort;
  if (!m || !m[1] || !port) throw new Error(`'${address}' is not a host:port address`);
  return { host: m[1], port };
}

/** Runs `work` with a deadline; the timeout rejects. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((
        _,
        reject,
      ) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a connection check may take before the target counts as Offline (§1.8). */
const CHECK_DEADLINE_MS = 5000;

/** Whether a target's connection check (a connect, a ping) succeeds within the deadline: its Online state. */
export async function checkPasses(check: Promise<unknown>, ms = CHECK_DEADLINE_MS): Promise<boolean> {
  try {
    await withDeadline(check, ms, "connection check");
    return true;
  } catch {
    return false;
  }
}

/** Whether a TCP connection to host:port opens within the deadline (MinIO's webhook check, §1.8). */
export function canConnect(host: string, port: number, ms = CHECK_DEADLINE_MS): Promise<boolean> {
  return checkPasses(Deno.connect({ hostname: host, port }).then((conn) => conn.close()), ms);
}

/** An error's message for logs, with the target's secrets cut out. */
export function describe(error: unknown, secrets: (string | undefined)[]): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) {
    if (secret && secret.length >= 3) text = text.split(secret).join("*REDACTED*");
  }
  return text;
}

/** One statement's worth of a batch for the database targets (§1.6). */
export interface Step<E extends Keyed = NotifyEvent> {
  kind: "upsert" | "delete" | "append";
  events: E[];
}

/** What planning a batch needs of an event. */
export interface Keyed {
  EventName: string;
  Key: string;
}

/** What a database row needs of an event, taken from its JSON line without parsing the whole record. */
export interface RowParts extends Keyed {
  eventTime: string;
  /** `{"Records":[record]}` as JSON text (§1.6). */
  records: string;
}

const RECORDS_MARK = ',"Records":[';

/**
 * The line is the envelope as JSON.stringify wrote it: `{"EventName":…,"Key":…,"Records":[…]}`. Every quote
 * inside a JSON string is escaped, so the first `,"Records":[` is where the records start; the head before it
 * is parsed on its own (two short strings) and the records are passed on as the text they already are.
 */
export function rowParts(delivery: Delivery): RowParts {
  const line = delivery.line;
  const at = line.indexOf(RECORDS_MARK);
  const time = at < 0 ? null : /"eventTime":"([^"\\]*)"/.exec(line.slice(at, at + 400));
  if (at < 0 || !time) {
    const event = delivery.event;
    return {
      EventName: event.EventName,
      Key: event.Key,
      eventTime: event.Records[0].eventTime,
      records: recordsDocument(event),
    };
  }
  const head = JSON.parse(line.slice(0, at) + "}") as Keyed;
  return { EventName: head.EventName, Key: head.Key, eventTime: time[1], records: `{${line.slice(at + 1)}` };
}

/**
 * Groups a batch into as few statements as keep its meaning: in access format one multi-row insert; in
 * namespace format runs of upserts of distinct keys and runs of deletes, each cut where the order between
 * them matters (a key seen again, or a switch between upsert and delete). Each run is one statement, so a
 * busy target costs one round trip per run instead of one per event.
 */
export function planSteps<E extends Keyed>(batch: E[], format: Format): Step<E>[] {
  if (format === "access") return batch.length ? [{ kind: "append", events: batch }] : [];
  const steps: Step<E>[] = [];
  let keys = new Set<string>();
  for (const event of batch) {
    const kind = isRemoval(event) ? "delete" : "upsert";
    const last = steps[steps.length - 1];
    if (last && last.kind === kind && (kind === "delete" || !keys.has(event.Key))) {
      last.events.push(event);
    } else {
      steps.push({ kind, events: [event] });
      keys = new Set();
    }
    keys.add(event.Key);
  }
  return steps;
}
