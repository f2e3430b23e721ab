/**
 * Runs one job: a lister walks the sources with the paged listing (1,000 keys a page, resuming after the last
 * key it recorded) while workers copy with bounded concurrency; a move's verified copies go to a remover that
 * deletes their sources in batches (DeleteObjects, several at once), and a delete job's items go there directly.
 *
 * The order that keeps a move from losing an object: copy → verify (copy_one.ts) → record "copied" → delete
 * the source → record "done". After a restart every item not done is looked at again: an item that was
 * pending is first compared with what the destination holds (the same size and ETag means it was copied
 * before the restart, whatever the conflict choice), so nothing is copied twice into a versioned bucket and
 * nothing is lost.
 *
 * Cancel and stop let the objects in flight finish, then end; an ended session stops the job with the items
 * it had not reached still pending.
 */
import { destinationKey } from "../../../lib/contract/jobs.ts";
import type { S3Client } from "../../../lib/s3/client.ts";
import { S3Error } from "../../../lib/s3/errors.ts";
import { getObjectLockConfig } from "../../../lib/s3/ops/bucket_config.ts";
import { deleteObjects, listObjectsV2 } from "../../../lib/s3/ops/objects.ts";
import { copyOne, headOrNull, isSameObject } from "./copy_one.ts";
import type { ItemRow, JobRow, JobStore } from "./store.ts";

/** Objects copied at once per job. */
export const COPY_CONCURRENCY = 32;
/** Keys per DeleteObjects call, and calls at once (delete jobs use as many workers). */
const DELETE_BATCH = 50;
const DELETE_PARALLEL = 16;
/** A move deletes sources once this many copies are verified (or the copies run out). */
const MOVE_DELETE_BATCH = DELETE_BATCH;
const RATE_WINDOW_MS = 5000;
/** The storage's answers meaning the credentials are no longer accepted: the owner's session ended. */
const SESSION_ENDED = new Set([
  "InvalidAccessKeyId",
  "ExpiredToken",
  "InvalidTokenId",
  "SignatureDoesNotMatch",
]);

export interface RunnerOptions {
  store: JobStore;
  /** The client of the owner's current session, or null when it has none left (the job then stops). */
  client: () => S3Client | null;
  now: () => number;
  /** Something visible changed (progress, state). */
  changed: () => void;
  concurrency?: number;
  multipartAbove?: number;
  partSize?: number;
}

export interface Progress {
  totalObjects: number;
  totalBytes: number;
  doneObjects: number;
  doneBytes: number;
  skipped: number;
  failed: number;
}

/** How a run ended: finished (state "done"), cancelled, stopped (with a reason), or interrupted by shutdown. */
export type RunEnd =
  | { state: "done" | "cancelled" }
  | { state: "stopped"; reason: string; sessionEnded?: boolean }
  | { state: "interrupted" };

class SessionEnded extends Error {}

export class JobRunner {
  readonly progress: Progress = {
    totalObjects: 0,
    totalBytes: 0,
    doneObjects: 0,
    doneBytes: 0,
    skipped: 0,
    failed: 0,
  };
  #queue: (ItemRow & { check: boolean })[] = [];
  #wake: (() => void)[] = [];
  #listing = true;
  #toDelete: ItemRow[] = [];
  #deletes = new Set<Promise<void>>();
  #listComplete = false;
  #cancelled = false;
  #interrupted = false;
  #stop: string | null = null;
  #samples: { at: number; objects: number; bytes: number }[] = [];
  #carryLock = false;
  #fatal: unknown = null;

  constructor(readonly job: JobRow, private readonly options: RunnerOptions) {
    for (const c of options.store.counts(job.id)) {
      this.progress.totalObjects += c.count;
      this.progress.totalBytes += c.bytes;
      if (c.status === "done" || c.status === "skipped") {
        this.progress.doneObjects += c.count;
        this.progress.doneBytes += c.bytes;
      }
      if (c.status === "skipped") this.progress.skipped += c.count;
      if (c.status === "failed") this.progress.failed += c.count;
    }
  }

  /** Stop after the objects in flight; the job ends "cancelled". */
  cancel(): void {
    this.#cancelled = true;
    this.#release();
  }

  /** The console is stopping: end after the objects in flight, keeping the job to resume. */
  interrupt(): void {
    this.#interrupted = true;
    this.#release();
  }

  /** Whether every source has been listed (totals are final). */
  get listed(): boolean {
    return this.#listComplete;
  }

  /** Objects and bytes per second over the last RATE_WINDOW_MS. */
  rate(): { objects: number; bytes: number } {
    const now = this.options.now();
    this.#sample(now);
    const first = this.#samples[0];
    const span = (now - first.at) / 1000;
    if (span < 0.5) return { objects: 0, bytes: 0 };
    return {
      objects: (this.progress.doneObjects - first.objects) / span,
      bytes: (this.progress.doneBytes - first.bytes) / span,
    };
  }

  async run(): Promise<RunEnd> {
    const { spec } = this.job;
    for (const item of this.options.store.unfinished(this.job.id)) {
      if (item.status === "copied") this.#toDelete.push(item);
      else this.#queue.push({ ...item, check: true });
    }
    this.#listing = !this.job.listed;
    this.#listComplete = this.job.listed;
    const fail = (error: unknown) => this.#fail(error);
    try {
      if (spec.kind !== "delete") this.#carryLock = await this.#bothLocked();
    } catch (error) {
      fail(error);
    }
    const workers = spec.kind === "delete"
      ? Array.from({ length: DELETE_PARALLEL }, () => this.#deleteWorker())
      : Array.from({ length: this.options.concurrency ?? COPY_CONCURRENCY }, () => this.#copyWorker());
    const lister = this.#listing && !this.#fatal ? this.#list() : Promise.resolve();
    await Promise.all([lister, ...workers].map((p) => p.catch(fail))).finally(() => (this.#listing = false));
    // Verified copies lose their sources even when the job is cancelled: a move never leaves both behind.
    if (spec.kind === "move" && !(this.#fatal instanceof SessionEnded)) {
      await this.#flushDeletes(true).catch(fail);
    }
    await Promise.all(this.#deletes).catch(fail);
    this.options.store.flush();
    if (this.#fatal instanceof SessionEnded) {
      return { state: "stopped", reason: "the owner's session ended", sessionEnded: true };
    }
    if (this.#fatal) return { state: "stopped", reason: messageOf(this.#fatal) };
    if (this.#stop) return { state: "stopped", reason: this.#stop };
    if (this.#interrupted) return { state: "interrupted" };
    if (this.#cancelled) return { state: "cancelled" };
    return { state: "done" };
  }

  /** Whatever fails outside one object's work ends the job; the others then stop taking objects. */
  #fail(error: unknown): void {
    this.#fatal ??= error;
    this.#release();
  }

  #halted(): boolean {
    return this.#cancelled || this.#interrupted || this.#stop !== null || this.#fatal !== null;
  }

  #client(): S3Client {
    const client = this.options.client();
    if (!client) throw new SessionEnded();
    return client;
  }

  async #bothLocked(): Promise<boolean> {
    const { source, destination } = this.job.spec;
    const locked = async (bucket: string) =>
      (await getObjectLockConfig(this.#client(), bucket).catch(() => ({ enabled: false }))).enabled;
    return await locked(source.bucket) && await locked(destination!.bucket);
  }

  /** Lists every name from where the listing stopped, recording each page with its position. */
  async #list(): Promise<void> {
    const { source } = this.job.spec;
    let index = this.job.listIndex, after = this.job.listAfter;
    while (index < source.names.length && !this.#halted()) {
      const name = source.names[index];
      let found: { key: string; size: number; etag: string }[] = [];
      let more = false;
      if (name.endsWith("/")) {
        const page = await this.#call(() =>
          listObjectsV2(this.#client(), source.bucket, {
            prefix: name,
            startAfter: after || undefined,
            maxKeys: 1000,
          })
        );
        found = page.objects.map((o) => ({ key: o.key, size: o.size, etag: o.etag }));
        more = page.isTruncated && found.length > 0;
      } else {
        const info = await this.#call(() => headOrNull(this.#client(), source.bucket, name));
        if (info) found = [{ key: name, size: info.size, etag: info.etag }];
      }
      const position = more ? { index, after: found[found.length - 1].key } : { index: index + 1, after: "" };
      const done = !more && index + 1 >= source.names.length;
      const rows = this.options.store.addListed(this.job.id, found, { ...position, listed: done });
      ({ index, after } = position);
      for (const row of rows) {
        this.progress.totalObjects++;
        this.progress.totalBytes += row.size;
        this.#queue.push({ ...row, check: false });
      }
      this.#release();
      this.options.changed();
    }
    this.#listComplete = index >= source.names.length;
    this.#listing = false;
  }

  #release(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  /** The next item to work on, or null when there is none left (or the job must end). */
  async #next(): Promise<(ItemRow & { check: boolean }) | null> {
    while (true) {
      if (this.#halted()) return null;
      const item = this.#queue.shift();
      if (item) return item;
      if (!this.#listing) return null;
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  async #copyWorker(): Promise<void> {
    const { spec } = this.job;
    const destination = spec.destination!;
    for (let item = await this.#next(); item; item = await this.#next()) {
      const target = {
        bucket: destination.bucket,
        key: destinationKey(item.key, spec.source.base, destination.prefix),
      };
      try {
        const existing = item.check || spec.conflict !== "overwrite"
          ? await this.#call(() => headOrNull(this.#client(), target.bucket, target.key))
          : null;
        if (existing && !isSameObject(existing, item)) {
          if (spec.conflict === "skip") {
            this.#finish(item, "skipped");
            continue;
          }
          if (spec.conflict === "stop") {
            this.#stop = `${target.key} already exists in ${target.bucket}`;
            this.#release();
            return;
          }
        }
        if (!existing || !isSameObject(existing, item)) {
          await this.#call(() =>
            copyOne(this.#client(), {
              source: { bucket: spec.source.bucket, ...item },
              target,
              carryLock: this.#carryLock,
              multipartAbove: this.options.multipartAbove,
              partSize: this.options.partSize,
            })
          );
        }
        if (spec.kind === "move") {
          this.options.store.setItem(this.job.id, item.seq, "copied");
          this.#toDelete.push(item);
          await this.#flushDeletes(false);
        } else this.#finish(item, "done");
      } catch (error) {
        if (error instanceof SessionEnded) throw error;
        this.#finish(item, "failed", messageOf(error));
      }
    }
  }

  async #deleteWorker(): Promise<void> {
    for (let first = await this.#next(); first; first = await this.#next()) {
      const batch: ItemRow[] = [first];
      while (batch.length < DELETE_BATCH && this.#queue.length > 0) batch.push(this.#queue.shift()!);
      await this.#deleteBatch(batch);
    }
  }

  /**
   * Deletes the verified copies' sources in batches, DELETE_PARALLEL batches at once: the storage deletes a
   * batch's keys one after another, so batches side by side are what lets its writes overlap. A worker waits
   * only when that many batches are already in flight, so deletes never fall far behind the copies.
   */
  async #flushDeletes(all: boolean): Promise<void> {
    while (this.#toDelete.length >= (all ? 1 : MOVE_DELETE_BATCH)) {
      if (this.#deletes.size >= DELETE_PARALLEL) {
        await Promise.race(this.#deletes);
        continue;
      }
      const batch = this.#toDelete.splice(0, MOVE_DELETE_BATCH);
      // Its failure (the session ending) is the job's, handled here: it may come while nobody awaits it.
      const running: Promise<void> = this.#deleteBatch(batch)
        .catch((error) => this.#fail(error))
        .finally(() => this.#deletes.delete(running));
      this.#deletes.add(running);
      if (!all) return;
    }
    if (all) await Promise.all(this.#deletes);
  }

  async #deleteBatch(batch: ItemRow[]): Promise<void> {
    const { bucket } = this.job.spec.source;
    try {
      const result = await this.#call(() =>
        deleteObjects(this.#client(), bucket, batch.map((i) => ({ key: i.key })), { quiet: true })
      );
      const errors = new Map(result.errors.map((e) => [e.key, `${e.code}: ${e.message}`]));
      for (const item of batch) {
        const error = errors.get(item.key);
        this.#finish(
          item,
          error ? "failed" : "done",
          error && this.job.spec.kind === "move" ? `copied, but the source was not deleted: ${error}` : error,
        );
      }
    } catch (error) {
      if (error instanceof SessionEnded) throw error;
      for (const item of batch) this.#finish(item, "failed", messageOf(error));
    }
  }

  #finish(item: ItemRow, status: "done" | "skipped" | "failed", error: string | null = null): void {
    this.options.store.setItem(this.job.id, item.seq, status, error);
    if (status === "failed") this.progress.failed++;
    else {
      this.progress.doneObjects++;
      this.progress.doneBytes += item.size;
      if (status === "skipped") this.progress.skipped++;
    }
    this.#sample(this.options.now());
    this.options.changed();
  }

  #sample(now: number): void {
    const last = this.#samples[this.#samples.length - 1];
    if (!last || now - last.at >= 250) {
      this.#samples.push({ at: now, objects: this.progress.doneObjects, bytes: this.progress.doneBytes });
    }
    while (this.#samples.length > 1 && now - this.#samples[0].at > RATE_WINDOW_MS) this.#samples.shift();
  }

  /** A storage call; credentials the storage no longer accepts end the job's session. */
  async #call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof S3Error && SESSION_ENDED.has(error.code)) throw new SessionEnded();
      throw error;
    }
  }
}

function messageOf(error: unknown): string {
  if (error instanceof S3Error) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
