/**
 * The replication queue: versions waiting to reach a remote target, sent by a few workers, retried with
 * backoff. What is waiting is durable without a queue file of its own: a version's per-target status
 * (PENDING, FAILED) is committed with the version in the bucket's records log, so at start every version not
 * yet COMPLETED is queued again. Only removals of a version (DeleteReplication) leave no version behind to
 * carry a status; they are kept in a small SQLite table until the target has them.
 *
 * Sending is idempotent (the target stores the version under the source's version id, replacing itself), so
 * a version sent again after a crash still arrives exactly once. Tasks for one key and target run one at a
 * time, in order.
 */
import { DatabaseSync } from "node:sqlite";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { caCertsOf } from "../../lib/http/trusted_cas.ts";
import type { Store } from "../fs/store.ts";
import { BandwidthLimit } from "./bandwidth.ts";
import { bucketReplication, matchingRules } from "./rules.ts";
import { sendPurge, sendVersion, targetClient } from "./send.ts";
import { SendThread } from "./send_thread.ts";
import { StatusRecorder } from "./status_recorder.ts";
import { queueExisting } from "./existing.ts";
import type { VersionRecord } from "../core/records.ts";
import type { BucketTargetDoc } from "./targets.ts";

interface Task {
  id: string;
  kind: "version" | "purge";
  bucket: string;
  key: string;
  versionId: string;
  arn: string;
  attempts: number;
  queuedAt: number;
  running: boolean;
  /** Asked for again while running (tags changed, say): run once more afterwards. */
  rerun: boolean;
  timer?: ReturnType<typeof setTimeout>;
  /** Called after the next attempt (sync mode waits for it). */
  waiters: (() => void)[];
}

/** What the metrics report per target besides the counts read from the versions. */
export interface TargetActivity {
  sentBytes: number;
  sentCount: number;
  failedAttempts: number;
  lastError?: string;
  lastErrorTime?: string;
  /** Milliseconds from queueing to arrival of recent versions (for the lag benchmark). */
  latencies: number[];
}

export interface ReplicatorOptions {
  store: Store;
  /** Where the removals table lives (the data directory's .deck). */
  deckDir: string;
  /** Versions sent at once (all targets together). */
  concurrency?: number;
  /** Longest wait between attempts of a failing task. */
  maxBackoffMs?: number;
  /** How targets are called (fetchTrusting's; the send thread builds a client from the certificates it carries). */
  fetch?: typeof fetch;
}

const registry = new WeakMap<Store, Replicator>();

/** A failure as the metrics report it: the target's S3 error, or why it could not be reached. */
function describe(error: unknown): string {
  if (error instanceof S3Error) return `the target answered ${error.code}: ${error.message}`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof TypeError ? `the target cannot be reached (${cause || message})` : message;
}

/** The replicator serving a store, if one runs (the S3 handlers reach it through this). */
export const replicatorOf = (store: Store): Replicator | undefined => registry.get(store);

export class Replicator {
  readonly #store: Store;
  readonly #db: DatabaseSync;
  readonly #tasks = new Map<string, Task>();
  readonly #ready: Task[] = [];
  /** Tasks waiting for their key (and target) to be free. */
  readonly #busyKeys = new Map<string, Task[]>();
  readonly #activity = new Map<string, TargetActivity>();
  readonly #limits = new Map<string, BandwidthLimit>();
  readonly #clients = new Map<string, { doc: string; client: S3Client }>();
  readonly #abort = new AbortController();
  readonly #sends: SendThread;
  readonly #fetch: typeof fetch;
  readonly #running = new Set<Promise<void>>();
  readonly #concurrency: number;
  readonly #maxBackoffMs: number;
  readonly #statuses: StatusRecorder;
  #active = 0;
  #closed = false;

  private constructor(options: ReplicatorOptions, db: DatabaseSync) {
    this.#store = options.store;
    this.#db = db;
    this.#concurrency = options.concurrency ?? 16;
    this.#maxBackoffMs = options.maxBackoffMs ?? 5000;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#sends = new SendThread([...caCertsOf(this.#fetch)]);
    this.#statuses = new StatusRecorder(options.store, (taskId) => this.#tasks.has(taskId));
  }

  /** Opens the removals table, queues every version not yet replicated, and starts sending. */
  static async start(options: ReplicatorOptions): Promise<Replicator> {
    await Deno.mkdir(options.deckDir, { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(`${options.deckDir}/replication.db`);
    db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
    db.exec(
      "CREATE TABLE IF NOT EXISTS purges (bucket TEXT NOT NULL, key TEXT NOT NULL, version_id TEXT NOT NULL, arn TEXT NOT NULL, PRIMARY KEY (bucket, key, version_id, arn))",
    );
    const replicator = new Replicator(options, db);
    registry.set(options.store, replicator);
    for (const state of options.store.buckets.values()) {
      for (const record of state.objects.values()) {
        for (const version of record.versions) {
          for (const [arn, status] of Object.entries(version.replication ?? {})) {
            if (status !== "COMPLETED") {
              replicator.#enqueue("version", state.name, record.key, version.versionId, arn);
            }
          }
        }
      }
    }
    const rows = db.prepare("SELECT bucket, key, version_id, arn FROM purges").all() as {
      bucket: string;
      key: string;
      version_id: string;
      arn: string;
    }[];
    for (const row of rows) replicator.#enqueue("purge", row.bucket, row.key, row.version_id, row.arn);
    // Rules with ExistingObjectReplication whose marking a stop interrupted finish now.
    for (const bucket of options.store.buckets.keys()) {
      queueExisting(options.store, replicator, bucket).catch(() => {});
    }
    return replicator;
  }

  /** Queues a version for the given targets; resolves after each has had one attempt. */
  sendVersion(bucket: string, key: string, versionId: string, arns: string[]): Promise<void> {
    return Promise.all(arns.map((arn) => this.#enqueue("version", bucket, key, versionId, arn))).then(
      () => {},
    );
  }

  /** Records (durably) and queues the removal of a version on the given targets. */
  sendPurge(bucket: string, key: string, versionId: string, arns: string[]): Promise<void> {
    const insert = this.#db.prepare(
      "INSERT OR IGNORE INTO purges (bucket, key, version_id, arn) VALUES (?, ?, ?, ?)",
    );
    for (const arn of arns) insert.run(bucket, key, versionId, arn);
    return Promise.all(arns.map((arn) => this.#enqueue("purge", bucket, key, versionId, arn))).then(() => {});
  }

  /** Removals of a bucket's versions not yet done on the target, by ARN. */
  pendingPurges(bucket: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const task of this.#tasks.values()) {
      if (task.kind === "purge" && task.bucket === bucket) {
        counts.set(task.arn, (counts.get(task.arn) ?? 0) + 1);
      }
    }
    return counts;
  }

  activity(arn: string): TargetActivity {
    let activity = this.#activity.get(arn);
    if (!activity) {
      this.#activity.set(arn, activity = { sentBytes: 0, sentCount: 0, failedAttempts: 0, latencies: [] });
    }
    return activity;
  }

  /** Versions and removals still waiting (all buckets). */
  get backlog(): number {
    return this.#tasks.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#abort.abort();
    for (const task of this.#tasks.values()) {
      clearTimeout(task.timer);
      for (const wake of task.waiters.splice(0)) wake();
    }
    await Promise.allSettled([...this.#running]);
    this.#sends.close();
    await this.#statuses.settled();
    if (registry.get(this.#store) === this) registry.delete(this.#store);
    this.#db.close();
  }

  #enqueue(kind: Task["kind"], bucket: string, key: string, versionId: string, arn: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const id = `${kind}\0${arn}\0${bucket}\0${key}\0${versionId}`;
    let task = this.#tasks.get(id);
    const attempted = new Promise<void>((resolve) => {
      if (task) {
        task.waiters.push(resolve);
        if (task.running) task.rerun = true;
        return;
      }
      task = {
        id,
        kind,
        bucket,
        key,
        versionId,
        arn,
        attempts: 0,
        queuedAt: performance.now(),
        running: false,
        rerun: false,
        waiters: [resolve],
      };
      this.#tasks.set(id, task);
      this.#ready.push(task);
    });
    this.#pump();
    return attempted;
  }

  #pump(): void {
    while (!this.#closed && this.#active < this.#concurrency && this.#ready.length > 0) {
      const task = this.#ready.shift()!;
      // A target that could not be reached is not tried by every task: they wait until it may be back.
      const downFor = (this.#down.get(task.arn) ?? 0) - performance.now();
      if (downFor > 0 && task.timer === undefined) {
        for (const wake of task.waiters.splice(0)) wake();
        task.timer = setTimeout(() => {
          task.timer = undefined;
          if (!this.#closed) (this.#ready.push(task), this.#pump());
        }, downFor);
        continue;
      }
      const slot = `${task.arn}\0${task.bucket}\0${task.key}`;
      const waiting = this.#busyKeys.get(slot);
      if (waiting) {
        waiting.push(task);
        continue;
      }
      this.#busyKeys.set(slot, []);
      this.#active++;
      const run = this.#run(task).finally(() => {
        this.#active--;
        this.#running.delete(run);
        const next = this.#busyKeys.get(slot) ?? [];
        this.#busyKeys.delete(slot);
        // Tasks that waited for this key go first, in their order.
        this.#ready.unshift(...next);
        this.#pump();
      });
      this.#running.add(run);
    }
  }

  async #run(task: Task): Promise<void> {
    task.running = true;
    task.rerun = false;
    const waiters = task.waiters.splice(0);
    task.attempts++;
    let outcome: "done" | "retry" | "drop";
    try {
      outcome = await this.#attempt(task);
    } catch (error) {
      outcome = this.#closed ? "drop" : "retry";
      this.#failed(task, error);
      // Not an S3 answer: the target is unreachable for now.
      if (!(error instanceof S3Error)) {
        this.#down.set(task.arn, performance.now() + this.#backoff(task.attempts));
      }
    }
    task.running = false;
    for (const wake of waiters) wake();
    if (this.#closed) return;
    if (outcome === "retry" || task.rerun) {
      if (outcome !== "retry") task.attempts = 0;
      const delay = outcome === "retry" ? this.#backoff(task.attempts) : 0;
      task.timer = setTimeout(() => {
        task.timer = undefined;
        if (!this.#closed) (this.#ready.push(task), this.#pump());
      }, delay);
      return;
    }
    this.#tasks.delete(task.id);
    if (outcome === "done") this.#down.delete(task.arn);
    if (task.kind === "purge") {
      this.#db.prepare("DELETE FROM purges WHERE bucket = ? AND key = ? AND version_id = ? AND arn = ?").run(
        task.bucket,
        task.key,
        task.versionId,
        task.arn,
      );
    }
    if (outcome === "done" && task.attempts > 1) this.#wake(task.arn);
  }

  readonly #woken = new Map<string, number>();
  /** Targets that could not be reached, until when their tasks wait. */
  readonly #down = new Map<string, number>();

  /** Wait before attempt `attempts + 1`: from 0.2 s doubling to the maximum, with jitter. */
  #backoff(attempts: number): number {
    return Math.min(this.#maxBackoffMs, 200 * 2 ** Math.min(attempts - 1, 10)) * (0.75 + Math.random() / 2);
  }

  /** The target answered again: tasks for it waiting out a backoff go now (at most once a second). */
  #wake(arn: string): void {
    if (performance.now() - (this.#woken.get(arn) ?? -Infinity) < 1000) return;
    this.#woken.set(arn, performance.now());
    for (const task of this.#tasks.values()) {
      if (task.arn === arn && task.timer !== undefined) {
        clearTimeout(task.timer);
        task.timer = undefined;
        this.#ready.push(task);
      }
    }
  }

  #failed(task: Task, error: unknown): void {
    const activity = this.activity(task.arn);
    activity.failedAttempts++;
    activity.lastError = `${task.bucket}/${task.key}: ${describe(error)}`;
    activity.lastErrorTime = new Date().toISOString();
    if (task.kind === "version" && !this.#closed) this.#statuses.record(task, "FAILED").catch(() => {});
  }

  #target(doc: BucketTargetDoc): S3Client {
    const text = JSON.stringify(doc);
    const cached = this.#clients.get(doc.arn);
    if (cached?.doc === text) return cached.client;
    const client = targetClient(doc, this.#fetch);
    this.#clients.set(doc.arn, { doc: text, client });
    return client;
  }

  #limit(doc: BucketTargetDoc): BandwidthLimit {
    let limit = this.#limits.get(doc.arn);
    if (!limit || limit.bytesPerSecond !== doc.bandwidthlimit) {
      this.#limits.set(doc.arn, limit = new BandwidthLimit(doc.bandwidthlimit));
    }
    return limit;
  }

  async #attempt(task: Task): Promise<"done" | "retry" | "drop"> {
    const config = await bucketReplication(this.#store, task.bucket);
    const doc = config?.targets.find((t) => t.arn === task.arn);
    if (!config || !doc) {
      // Replication was switched off or the target removed: nothing to send to; the version says FAILED.
      this.#failed(
        task,
        new Error(`the remote target ${task.arn} is no longer configured for bucket ${task.bucket}`),
      );
      return "drop";
    }
    const client = this.#target(doc);
    const activity = this.activity(task.arn);
    if (task.kind === "purge") {
      await sendPurge(client, this.#sends, doc, task.key, task.versionId, this.#abort.signal);
      activity.sentCount++;
      return "done";
    }
    const version = this.#version(task);
    // Gone (removed since, or its bucket deleted): nothing left to send; a removal has its own task.
    if (!version || !version.replication?.[task.arn]) return "drop";
    const rule = matchingRules(config, task.key, version.tags).get(task.arn);
    const sent = await sendVersion(
      this.#store,
      client,
      this.#sends,
      doc,
      task.bucket,
      task.key,
      version,
      rule,
      this.#limit(doc),
      this.#abort.signal,
    );
    activity.sentBytes += sent;
    activity.sentCount++;
    if (activity.latencies.length >= 10_000) activity.latencies.splice(0, 5_000);
    activity.latencies.push(performance.now() - task.queuedAt);
    // Changed while it was being sent: the next run sends it again and only then is it complete.
    if (task.rerun) return "done";
    // Sync mode answers with the status; otherwise COMPLETED is recorded in batches (see StatusRecorder).
    if (doc.replicationSync) await this.#statuses.record(task, "COMPLETED");
    else this.#statuses.completeLater(task);
    return "done";
  }

  #version(task: Task): VersionRecord | undefined {
    return this.#store.buckets.get(task.bucket)?.objects.get(task.key)?.versions.find((v) =>
      v.versionId === task.versionId
    );
  }
}
