/**
 * Jobs on many objects (issue 28): copy, move, rename and delete run here, on the console's server, with the
 * owner's own credentials, so a job can do only what its owner may. The rules (docs/notes.md, "Jobs"):
 *
 * - A job runs with the newest live session its owner has shown the jobs API (creating it, listing jobs,
 *   the object browser's jobs panel and its live updates all count); when that session ends (expiry, sign-out,
 *   the storage refusing its credentials) and no newer one is known, the job stops after the objects in
 *   flight and waits ("waiting") for a new session of its owner, or to be cancelled.
 * - The session is kept with the job sealed by the console's session key. After a restart a job resumes at
 *   once when that still opens (same CONSOLE_PBKDF_* settings) and the storage accepts it; otherwise it waits
 *   ("waiting") until its owner signs in and opens the object browser, and never runs without them.
 * - Each owner sees and cancels only their own jobs.
 */
import { type CreateJobInput, destinationKey, type JobState, type JobView } from "../../lib/contract/jobs.ts";
import type { Logger } from "../../lib/http/log.ts";
import { headBucket } from "../../lib/s3/ops/buckets.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { ApiError } from "../http/errors.ts";
import { clientFor, type StorageAccess } from "../session/clients.ts";
import { openJson, sealJson, type SessionData } from "../session/token.ts";
import { JobRunner, type RunEnd } from "./jobs/runner.ts";
import { type JobRow, type JobSpec, JobStore } from "./jobs/store.ts";

export interface JobsDeps extends StorageAccess {
  now: () => number;
  sessionKey: CryptoKey;
  /** The console's data directory: jobs live in `.deck/jobs.db` there. */
  dataDir: string;
  log: Logger;
  /** Tuning for tests and benchmarks (runner.ts, copy_one.ts). */
  concurrency?: number;
  multipartAbove?: number;
  partSize?: number;
}

const SEAL_PURPOSE = "job-session";

interface Live {
  row: JobRow;
  runner: JobRunner | null;
  session: SessionData | null;
  /** The session came from the disk after a restart, not from a request since. */
  restored: boolean;
  done: Promise<void>;
  /** The view of an ended job (its counts no longer change). */
  final?: JobView;
}

/** How long an ended job stays listed (and its items kept) before it is forgotten. */
export const KEEP_ENDED_JOBS_MS = 7 * 24 * 3600 * 1000;

export class JobManager {
  #store: JobStore | null = null;
  readonly #jobs = new Map<string, Live>();
  /** The newest session each owner has shown. */
  readonly #sessions = new Map<string, SessionData>();
  readonly #listeners = new Set<(owner: string) => void>();

  constructor(private readonly deps: JobsDeps) {}

  /** Opens the store and resumes the jobs a previous run left unfinished. */
  async start(): Promise<void> {
    await Deno.mkdir(`${this.deps.dataDir}/.deck`, { recursive: true });
    this.#store = new JobStore(`${this.deps.dataDir}/.deck/jobs.db`);
    this.#store.forgetEndedBefore(this.deps.now() - KEEP_ENDED_JOBS_MS);
    for (const row of this.#store.jobs()) {
      const live: Live = { row, runner: null, session: null, restored: true, done: Promise.resolve() };
      this.#jobs.set(row.id, live);
      if (row.state !== "running" && row.state !== "waiting") continue;
      const sealed = row.credentials
        ? await openJson(this.deps.sessionKey, SEAL_PURPOSE, row.credentials)
        : null;
      const session = sealed as SessionData | null;
      if (session && session.expiresAt > this.deps.now()) {
        live.session = session;
        this.#run(live);
      } else this.#wait(live);
    }
  }

  /** Interrupts running jobs after their objects in flight; they resume at the next start. */
  async close(): Promise<void> {
    const running = [...this.#jobs.values()].filter((j) => j.runner);
    for (const job of running) job.runner!.interrupt();
    await Promise.all(running.map((j) => j.done));
    this.#store?.close();
    this.#store = null;
  }

  get #db(): JobStore {
    if (!this.#store) {
      throw new ApiError(503, t("objects.jobs.unavailable"), { detail: t("objects.jobs.unavailableDetail") });
    }
    return this.#store;
  }

  /**
   * The owner's session as of this request: kept for their jobs (a newer one replaces an older one) and
   * wakes their waiting jobs.
   */
  async useSession(owner: string, session: SessionData): Promise<void> {
    const known = this.#sessions.get(owner);
    if (known && known.accessKey !== session.accessKey && known.expiresAt >= session.expiresAt) return;
    this.#sessions.set(owner, session);
    let sealed: string | null = null;
    for (const job of this.#jobs.values()) {
      if (job.row.owner !== owner || (job.row.state !== "running" && job.row.state !== "waiting")) continue;
      if (job.session?.accessKey !== session.accessKey) {
        sealed ??= await sealJson(this.deps.sessionKey, SEAL_PURPOSE, session);
        job.session = session;
        this.#store?.setCredentials(job.row.id, sealed);
      }
      job.restored = false;
      if (job.row.state === "waiting") this.#run(job);
    }
  }

  /** Starts a job for `owner` (checked input; permissions are the caller's to check). */
  async create(owner: string, session: SessionData, input: CreateJobInput): Promise<JobView> {
    const spec = checkSpec(input);
    const client = clientFor(this.deps, session);
    for (
      const bucket of new Set([spec.source.bucket, spec.destination?.bucket].filter(Boolean) as string[])
    ) {
      if (!await headBucket(client, bucket)) {
        throw ApiError.notFound(t("objects.jobs.bucketNotFound"), bucket);
      }
    }
    const row: JobRow = {
      id: crypto.randomUUID(),
      owner,
      spec,
      state: "running",
      reason: null,
      created: this.deps.now(),
      finished: null,
      listIndex: 0,
      listAfter: "",
      listed: false,
      credentials: await sealJson(this.deps.sessionKey, SEAL_PURPOSE, session),
    };
    // Each new job also forgets those that ended a week ago: no timer, and a console that runs for months
    // keeps a bounded file and panel.
    for (const id of this.#db.forgetEndedBefore(row.created - KEEP_ENDED_JOBS_MS)) this.#jobs.delete(id);
    this.#db.insertJob(row);
    const live: Live = { row, runner: null, session, restored: false, done: Promise.resolve() };
    this.#jobs.set(row.id, live);
    await this.useSession(owner, session);
    this.#run(live);
    return this.view(live);
  }

  list(owner: string): JobView[] {
    return [...this.#jobs.values()].filter((j) => j.row.owner === owner)
      .sort((a, b) => b.row.created - a.row.created).slice(0, 50).map((j) => this.view(j));
  }

  get(owner: string, id: string): JobView {
    return this.view(this.#own(owner, id));
  }

  cancel(owner: string, id: string): JobView {
    const job = this.#own(owner, id);
    if (job.runner) job.runner.cancel();
    else if (job.row.state === "waiting") this.#end(job, "cancelled", null);
    return this.view(job);
  }

  /** Calls `listener` with the owner whose jobs changed; returns the unsubscribe function. */
  subscribe(listener: (owner: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #own(owner: string, id: string): Live {
    const job = this.#jobs.get(id);
    if (!job || job.row.owner !== owner) throw ApiError.notFound(t("objects.jobs.jobNotFound"), id);
    return job;
  }

  #notify(owner: string): void {
    for (const listener of this.#listeners) listener(owner);
  }

  #wait(job: Live, reason = `waiting for ${job.row.owner} to sign in to resume`): void {
    this.#setState(job, "waiting", reason);
    const session = this.#sessions.get(job.row.owner);
    if (session && session.expiresAt > this.deps.now()) {
      job.session = session;
      job.restored = false;
      this.#run(job);
    }
  }

  #setState(job: Live, state: JobState, reason: string | null, finished: number | null = null): void {
    job.row = { ...job.row, state, reason, finished };
    this.#store?.setState(job.row.id, state, reason, finished);
    this.#notify(job.row.owner);
  }

  #end(job: Live, state: JobState, reason: string | null): void {
    job.final = undefined;
    this.#setState(job, state, reason, this.deps.now());
  }

  /** The client of the job's session, or of a newer one of its owner; null when none is alive. */
  #clientOf(job: Live): ReturnType<typeof clientFor> | null {
    const now = this.deps.now();
    if (!job.session || job.session.expiresAt <= now) {
      const newer = this.#sessions.get(job.row.owner);
      job.session = newer && newer.expiresAt > now ? newer : null;
    }
    return job.session ? clientFor(this.deps, job.session) : null;
  }

  #run(job: Live): void {
    if (job.runner) return;
    this.#setState(job, "running", null);
    const runner = new JobRunner(job.row, {
      store: this.#db,
      client: () => this.#clientOf(job),
      now: this.deps.now,
      changed: () => this.#notify(job.row.owner),
      concurrency: this.deps.concurrency,
      multipartAbove: this.deps.multipartAbove,
      partSize: this.deps.partSize,
    });
    job.runner = runner;
    job.done = runner.run().then((end) => this.#ended(job, end), (error) => {
      this.deps.log.error("job failed", { job: job.row.id, error: String(error) });
      this.#ended(job, { state: "stopped", reason: "an internal error stopped the job" });
    });
  }

  #ended(job: Live, end: RunEnd): void {
    const runner = job.runner!;
    job.runner = null;
    // Keep what the runner listed: a resumed run starts from the stored position.
    job.row = { ...job.row, listed: runner.listed || job.row.listed };
    if (end.state === "interrupted") return;
    if (end.state === "stopped" && end.sessionEnded) {
      // The job stops until its owner signs in again: verified copies whose sources were not deleted yet
      // are finished then, so a move never leaves an object in two places because a session ended.
      const dead = job.session?.accessKey;
      if (dead && this.#sessions.get(job.row.owner)?.accessKey === dead) this.#sessions.delete(job.row.owner);
      job.session = null;
      this.#refresh(job);
      return this.#wait(
        job,
        job.restored
          ? undefined
          : `stopped: the session of ${job.row.owner} ended; resumes when they sign in again`,
      );
    }
    this.#refresh(job);
    this.#end(job, end.state, end.state === "stopped" ? end.reason : null);
  }

  /** Re-reads the job's row (its listing position) after a run. */
  #refresh(job: Live): void {
    const row = this.#store?.jobs().find((r) => r.id === job.row.id);
    if (row) job.row = { ...row, state: job.row.state, reason: job.row.reason };
  }

  view(job: Live): JobView {
    if (job.final) return job.final;
    const { row } = job;
    if (row.state !== "running" && row.state !== "waiting" && !job.runner) {
      // An ended job's counts no longer change: read them once.
      job.final = { ...this.#view(job), state: row.state };
      return job.final;
    }
    return this.#view(job);
  }

  #view(job: Live): JobView {
    const { row } = job;
    const runner = job.runner ??
      new JobRunner(row, { store: this.#db, client: () => null, now: this.deps.now, changed: () => {} });
    const p = runner.progress;
    const rate = job.runner ? runner.rate() : { objects: 0, bytes: 0 };
    const listed = job.runner ? runner.listed || row.listed : row.listed;
    const left = p.totalObjects - p.doneObjects - p.failed;
    return {
      id: row.id,
      kind: row.spec.kind,
      state: row.state,
      ...(row.reason ? { reason: row.reason } : {}),
      source: row.spec.source,
      ...(row.spec.destination ? { destination: row.spec.destination } : {}),
      conflict: row.spec.conflict,
      created: new Date(row.created).toISOString(),
      ...(row.finished ? { finished: new Date(row.finished).toISOString() } : {}),
      listed,
      total_objects: p.totalObjects,
      total_bytes: p.totalBytes,
      done_objects: p.doneObjects,
      done_bytes: p.doneBytes,
      skipped_objects: p.skipped,
      failed_objects: p.failed,
      objects_per_second: Math.round(rate.objects * 10) / 10,
      bytes_per_second: Math.round(rate.bytes),
      ...(listed && rate.objects > 0 ? { seconds_left: Math.ceil(left / rate.objects) } : {}),
      failures: this.#db.failures(row.id),
    };
  }
}

/** The job as the input asks for it, or 400 naming what is wrong. */
export function checkSpec(input: CreateJobInput): JobSpec {
  const { kind, source, destination, conflict } = input;
  const bad = (message: string, detail?: string) => ApiError.badRequest(message, detail);
  if (kind === "delete" && destination) throw bad("a delete job has no destination");
  if (kind !== "delete" && !destination) throw bad(`a ${kind} job needs a destination`);
  for (const name of source.names) {
    if (!name.startsWith(source.base)) throw bad("every name must start with the base path", name);
    if (
      name.split("/").some((part, i, all) =>
        part === "." || part === ".." || (part === "" && i < all.length - 1)
      )
    ) {
      throw bad("names may not have empty, . or .. path segments", name);
    }
  }
  if (destination) {
    for (const name of source.names) {
      const target = destinationKey(name, source.base, destination.prefix);
      if (target === "" || target.startsWith("/")) throw bad("the destination path is empty", name);
      if (name.endsWith("/") !== target.endsWith("/")) {
        throw bad("a folder's destination must end with / and an object's must not", target);
      }
      if (destination.bucket !== source.bucket) continue;
      if (target === name) throw bad("the destination is the source", name);
      if (name.endsWith("/") && target.startsWith(name)) {
        throw bad("a folder cannot go inside itself", `${name} → ${target}`);
      }
    }
  }
  return {
    kind,
    source: { bucket: source.bucket, base: source.base, names: [...new Set(source.names)] },
    ...(destination ? { destination: { bucket: destination.bucket, prefix: destination.prefix } } : {}),
    conflict,
  };
}
