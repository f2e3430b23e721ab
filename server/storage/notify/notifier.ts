/**
 * Bucket event delivery to the configured notification targets (minio-protocol-2 §1): listens to the
 * storage's event hub, matches each event against its bucket's notification configuration (ARN, event
 * names, prefix, suffix) and passes it, in order, to the delivery side (delivery_thread.ts), which runs one
 * runner per target on a thread of its own.
 *
 * `apply(config)` is what a start or a service restart does (host.ts says what happens to each target).
 * Events arriving meanwhile wait and are matched against the new targets, so a restart loses none.
 */
import { parseNotificationXml, type QueueConfig } from "../../lib/s3/ops/notification.ts";
import { type BucketEvent, eventNameMatches, targetRecord } from "../events/records.ts";
import type { Store } from "../fs/store.ts";
import type { Hub } from "../streams/hub.ts";
import { type LogContext, logEntry } from "../streams/log_entry.ts";
import type { LogEntry } from "../streams/mod.ts";
import { DeliveryThread, type EventDelivery } from "./delivery_thread.ts";
import type { NotificationStatus, TargetSpec } from "./host.ts";
import type { RunnerStats } from "./runner.ts";
import type { NotifyEvent } from "./target.ts";
import { TARGET_TYPES } from "./targets.ts";
import type { ConfigTree } from "../core/contracts.ts";

/** Events waiting to be matched; beyond this a stalled dispatch drops (and counts) rather than grow. */
const INBOX_LIMIT = 100_000;
const STATUS_TTL_MS = 2000;

export interface NotifierOptions {
  store: Store;
  events: Hub<BucketEvent>;
  log: Hub<LogEntry>;
  deploymentId?: string;
  /** PEM certificates HTTPS targets trust besides the system's (the certificate directory's). */
  caCerts?: string[];
}

/** `arn:minio:sqs:<region>:<id>:<type>` → `<id>:<type>` (targets are matched regardless of region). */
export function targetKeyOfArn(arn: string): string | null {
  const parts = arn.split(":");
  return parts.length === 6 && parts[0] === "arn" && parts[2] === "sqs" ? `${parts[4]}:${parts[5]}` : null;
}

/** Target keys an event goes to under a bucket's notification configuration. */
export function matchTargets(configs: QueueConfig[], eventName: string, key: string): Set<string> {
  const out = new Set<string>();
  for (const config of configs) {
    if (!config.events.some((pattern) => eventNameMatches(pattern, eventName))) continue;
    if (config.prefix && !key.startsWith(config.prefix)) continue;
    if (config.suffix && !key.endsWith(config.suffix)) continue;
    const target = targetKeyOfArn(config.arn);
    if (target) out.add(target);
  }
  return out;
}

export class Notifier {
  readonly #rules = new Map<string, { text: string | undefined; configs: QueueConfig[] }>();
  /** Started with the first target; none for a server without targets. */
  #delivery: EventDelivery | null = null;
  #targets = new Set<string>();
  #inbox: BucketEvent[] = [];
  #inboxDropped = 0;
  #unsink: (() => void) | null = null;
  #lock: Promise<unknown> = Promise.resolve();
  #dispatching = false;
  #status: { at: number; value: Promise<NotificationStatus> } | null = null;

  constructor(private readonly options: NotifierOptions) {}

  /** Runs the targets of a configuration (at start and on every restart). */
  apply(tree: ConfigTree): Promise<void> {
    return this.#exclusive(async () => {
      const specs: TargetSpec[] = [];
      for (const [subsystem, targets] of Object.entries(tree)) {
        if (!TARGET_TYPES[subsystem]) continue;
        for (const [id, values] of Object.entries(targets)) {
          if (values.enable !== "off") {
            specs.push({ key: `${id}:${TARGET_TYPES[subsystem]}`, subsystem, id, values });
          }
        }
      }
      if (specs.length && !this.#delivery) {
        this.#delivery = new DeliveryThread(
          (level, message, context) => this.#log(level, message, context),
          this.options.caCerts ?? [],
        );
      }
      await this.#delivery?.apply(specs);
      this.#targets = new Set(specs.map((s) => s.key));
      this.#status = null;
      this.#listen();
    });
  }

  /** Listens to the event hub only while a target exists, so events cost nothing otherwise. */
  #listen(): void {
    if (this.#targets.size > 0 && !this.#unsink) {
      this.#unsink = this.options.events.sink((event) => {
        if (this.#inbox.length >= INBOX_LIMIT) {
          if (this.#inboxDropped++ % 1000 === 0) {
            this.#log("ERROR", `notification dispatch is behind: ${this.#inboxDropped} event(s) dropped`);
          }
          return;
        }
        this.#inbox.push(event);
        if (!this.#dispatching) this.#dispatch();
      });
    } else if (this.#targets.size === 0 && this.#unsink) {
      this.#unsink();
      this.#unsink = null;
    }
  }

  /** Matches waiting events in order; runs under the lock so an apply never sees half a dispatch. */
  #dispatch(): void {
    this.#dispatching = true;
    this.#exclusive(async () => {
      while (this.#inbox.length) {
        const events = this.#inbox;
        this.#inbox = [];
        for (const event of events) await this.#route(event);
      }
    }).catch((error) =>
      this.#log("ERROR", `notification dispatch failed: ${error instanceof Error ? error.message : error}`)
    )
      .finally(() => {
        this.#dispatching = false;
        if (this.#inbox.length) this.#dispatch();
      });
  }

  async #route(event: BucketEvent): Promise<void> {
    const targets = matchTargets(await this.#bucketRules(event.bucket), event.eventName, event.key);
    const keys = [...targets].filter((key) => this.#targets.has(key));
    if (keys.length === 0 || !this.#delivery) return;
    const envelope: NotifyEvent = {
      EventName: event.eventName,
      Key: `${event.bucket}/${event.key}`,
      Records: [targetRecord(event.record)],
    };
    this.#delivery.deliver(keys, JSON.stringify(envelope));
  }

  async #bucketRules(bucket: string): Promise<QueueConfig[]> {
    let text: string | undefined;
    try {
      text = await this.options.store.getDocument(bucket, "notification.xml");
    } catch {
      return []; // the bucket is gone
    }
    const cached = this.#rules.get(bucket);
    if (cached && cached.text === text) return cached.configs;
    let configs: QueueConfig[] = [];
    try {
      configs = text ? parseNotificationXml(text) : [];
    } catch { /* stored documents were validated when put */ }
    this.#rules.set(bucket, { text, configs });
    return configs;
  }

  /**
   * ServerInfo `services.notifications` (minio-protocol §3.9): each target's real connection check, kept for
   * STATUS_TTL_MS so a busy dashboard does not probe every target on every call.
   */
  status(): Promise<NotificationStatus> {
    const now = Date.now();
    if (this.#status && now - this.#status.at < STATUS_TTL_MS) return this.#status.value;
    const value = this.#delivery ? this.#delivery.status() : Promise.resolve([]);
    this.#status = { at: now, value };
    return value;
  }

  /** Delivery counters per target (`<id>:<type>`), plus events dropped before matching. */
  async stats(): Promise<{ targets: Record<string, RunnerStats>; dispatchDropped: number }> {
    return { targets: (await this.#delivery?.stats()) ?? {}, dispatchDropped: this.#inboxDropped };
  }

  async close(): Promise<void> {
    this.#unsink?.();
    this.#unsink = null;
    await this.#exclusive(async () => {
      await this.#delivery?.close();
      this.#delivery = null;
      this.#targets = new Set();
    });
  }

  #log(level: LogEntry["level"], message: string, context?: LogContext): void {
    this.options.log.publish(logEntry(this.options.deploymentId, level, message, context));
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => {});
    return run;
  }
}
