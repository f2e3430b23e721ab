/**
 * The running notification targets: one runner per target, started, replaced and stopped as configurations
 * are applied, fed the events matched for them, asked for status and counters. It runs on the delivery
 * thread (delivery_thread.ts), or on the main thread when that thread cannot start.
 */
import type { LogContext } from "../streams/log_entry.ts";
import { QueueStore } from "./queue_store.ts";
import { type RunnerStats, TargetRunner } from "./runner.ts";
import { lazyDelivery } from "./runner.ts";
import { createTarget, DEFAULT_QUEUE_LIMIT, TARGET_TYPES } from "./targets.ts";
import { UnsupportedTarget } from "./unsupported.ts";

/** One target a configuration asks for. */
export interface TargetSpec {
  /** `<id>:<type>`, as bucket notification ARNs name it. */
  key: string;
  subsystem: string;
  id: string;
  values: Record<string, string>;
}

/** ServerInfo `services.notifications` (minio-protocol §3.9). */
export type NotificationStatus = Record<string, Record<string, { status: string }>[]>[];

export type HostLog = (level: "ERROR" | "WARNING" | "INFO", message: string, context?: LogContext) => void;

/** A check still running after this long answers with the target's last known state. */
const STATUS_WAIT_MS = 1500;

interface Running {
  runner: TargetRunner;
  type: string;
  id: string;
  /** The configuration it runs with, to tell whether an apply changes it. */
  fingerprint: string;
  /** The result of its last finished connection check. */
  lastOnline?: boolean;
}

export class DeliveryHost {
  readonly #running = new Map<string, Running>();

  /** `caCerts`: PEM certificates the targets trust besides the system's (the certificate directory's). */
  constructor(private readonly log: HostLog, private readonly caCerts: string[]) {}

  /**
   * Runs exactly these targets: unchanged ones keep running untouched; changed ones are replaced after their
   * pending events were stored (queue_dir) or handed to the successor (in memory); removed ones stop.
   */
  async apply(specs: TargetSpec[]): Promise<void> {
    const wanted = new Map(specs.map((spec) => [spec.key, spec]));
    // A snapshot: replaced runners are re-added to the map while this loop runs.
    for (const [key, running] of [...this.#running]) {
      const next = wanted.get(key);
      if (next && JSON.stringify(next.values) === running.fingerprint) {
        wanted.delete(key);
        continue;
      }
      this.#running.delete(key);
      const left = await running.runner.stop();
      if (next) {
        (await this.#start(next)).adopt(left);
        wanted.delete(key);
      } else if (left.length) {
        this.log(
          "ERROR",
          `notification target ${key}: ${left.length} pending event(s) dropped: the target was removed`,
        );
      }
    }
    for (const spec of wanted.values()) await this.#start(spec);
  }

  async #start({ key, subsystem, id, values }: TargetSpec): Promise<TargetRunner> {
    const limit = Number(values.queue_limit) || DEFAULT_QUEUE_LIMIT;
    const type = TARGET_TYPES[subsystem];
    const log: HostLog = (level, message, context) =>
      this.log(level, `notification target ${key}: ${message}`, context);
    let runner: TargetRunner;
    try {
      const store = values.queue_dir
        ? await QueueStore.open(`${values.queue_dir}/minio-${type}-${id}`, limit)
        : undefined;
      runner = new TargetRunner(await createTarget(subsystem, id, values, this.caCerts), {
        store,
        memoryLimit: limit,
        log,
      });
    } catch (error) {
      // Still listed (Offline) and still counting what it drops: a target that cannot start is not hidden.
      const reason = `cannot start: ${error instanceof Error ? error.message : error}`;
      this.log("ERROR", `notification target ${key} ${reason}`);
      runner = new TargetRunner(new UnsupportedTarget(type, id, reason), { memoryLimit: limit, log });
    }
    this.#running.set(key, { runner, type, id, fingerprint: JSON.stringify(values) });
    return runner;
  }

  /** Hands one event (its envelope as JSON) to the targets it matched, in order. */
  deliver(keys: string[], line: string): void {
    const delivery = lazyDelivery(line);
    for (const key of keys) this.#running.get(key)?.runner.enqueue(delivery);
  }

  /** Each target's real connection check, bounded by STATUS_WAIT_MS (the check finishes in the background). */
  async status(): Promise<NotificationStatus> {
    const byType = new Map<string, Record<string, { status: string }>[]>();
    const checks = [...this.#running.values()].map(async (r) => {
      const check = r.runner.isOnline().then((online) => (r.lastOnline = online));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<boolean>((
        resolve,
      ) => (timer = setTimeout(() => resolve(r.lastOnline ?? false), STATUS_WAIT_MS)));
      const online = await Promise.race([check, late]).finally(() => clearTimeout(timer));
      return { r, online };
    });
    for (const { r, online } of await Promise.all(checks)) {
      const list = byType.get(r.type) ?? [];
      list.push({ [r.id]: { status: online ? "online" : "offline" } });
      byType.set(r.type, list);
    }
    return [...byType].map(([type, list]) => ({ [type]: list }));
  }

  /** Delivery counters per target (`<id>:<type>`). */
  stats(): Record<string, RunnerStats> {
    const out: Record<string, RunnerStats> = {};
    for (const [key, r] of this.#running) out[key] = r.runner.stats;
    return out;
  }

  async close(): Promise<void> {
    for (const [key, running] of [...this.#running]) {
      this.#running.delete(key);
      const left = await running.runner.stop();
      if (left.length) {
        this.log("ERROR", `notification target ${key}: ${left.length} pending event(s) dropped at shutdown`);
      }
    }
  }
}
