/**
 * Where jobs are kept: one SQLite file in the data directory (`.deck/jobs.db`, node:sqlite as the rest of
 * Deck), so a console that stops or crashes finds every job again and resumes it where it stopped.
 *
 * A job row holds what was asked, where the listing stopped (which name, after which key) and the owner's
 * sealed session; an item row holds one object and its state (pending → copied → done for a move, pending
 * → done for a copy or delete; skipped; failed). Listed items and the listing's position are written in one
 * transaction, so a restart neither lists an object twice nor misses one. Item state changes are written in
 * batches (every FLUSH_MS): a crash may lose the last few, which only makes a resumed job check those
 * objects again (runner.ts), never copy or delete one that should not be.
 */
import { DatabaseSync } from "node:sqlite";
import type { ConflictChoice, JobKind, JobState } from "../../../lib/contract/jobs.ts";

export type ItemStatus = "pending" | "copied" | "done" | "skipped" | "failed";

export interface JobSpec {
  kind: JobKind;
  source: { bucket: string; base: string; names: string[] };
  destination?: { bucket: string; prefix: string };
  conflict: ConflictChoice;
}

export interface JobRow {
  id: string;
  owner: string;
  spec: JobSpec;
  state: JobState;
  reason: string | null;
  created: number;
  finished: number | null;
  listIndex: number;
  listAfter: string;
  listed: boolean;
  /** The owner's session sealed with the console's session key ("" once the job ended). */
  credentials: string;
}

export interface ItemRow {
  seq: number;
  key: string;
  size: number;
  etag: string;
  status: ItemStatus;
  error: string | null;
}

export interface StatusCount {
  status: ItemStatus;
  count: number;
  bytes: number;
}

/** How often batched item updates reach the file. */
export const FLUSH_MS = 200;

export class JobStore {
  readonly #db: DatabaseSync;
  #pending: { job: string; seq: number; status: ItemStatus; error: string | null }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(file: string) {
    this.#db = new DatabaseSync(file);
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      CREATE TABLE IF NOT EXISTS jobs (
        id TEXT PRIMARY KEY, owner TEXT NOT NULL, spec TEXT NOT NULL, state TEXT NOT NULL, reason TEXT,
        created INTEGER NOT NULL, finished INTEGER, list_index INTEGER NOT NULL DEFAULT 0,
        list_after TEXT NOT NULL DEFAULT '', listed INTEGER NOT NULL DEFAULT 0, credentials TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS items (
        job TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, size INTEGER NOT NULL, etag TEXT NOT NULL,
        status TEXT NOT NULL, error TEXT, PRIMARY KEY (job, seq)
      );
      CREATE INDEX IF NOT EXISTS items_status ON items (job, status);
    `);
  }

  insertJob(job: JobRow): void {
    this.#db.prepare(
      `INSERT INTO jobs (id, owner, spec, state, reason, created, finished, list_index, list_after, listed,
        credentials) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      job.id,
      job.owner,
      JSON.stringify(job.spec),
      job.state,
      job.reason,
      job.created,
      job.finished,
      job.listIndex,
      job.listAfter,
      job.listed ? 1 : 0,
      job.credentials,
    );
  }

  jobs(): JobRow[] {
    return this.#db.prepare("SELECT * FROM jobs ORDER BY created DESC").all().map((r) => ({
      id: String(r.id),
      owner: String(r.owner),
      spec: JSON.parse(String(r.spec)) as JobSpec,
      state: String(r.state) as JobState,
      reason: r.reason === null ? null : String(r.reason),
      created: Number(r.created),
      finished: r.finished === null ? null : Number(r.finished),
      listIndex: Number(r.list_index),
      listAfter: String(r.list_after),
      listed: Number(r.listed) === 1,
      credentials: String(r.credentials),
    }));
  }

  /** A job's state, reason and end; an ended job forgets the owner's session. */
  setState(id: string, state: JobState, reason: string | null, finished: number | null): void {
    this.flush();
    const ended = state !== "running" && state !== "waiting";
    this.#db.prepare(
      `UPDATE jobs SET state = ?, reason = ?, finished = ?,
        credentials = CASE WHEN ? THEN '' ELSE credentials END WHERE id = ?`,
    ).run(state, reason, finished, ended ? 1 : 0, id);
  }

  /**
   * Forgets the jobs that ended before `before` (epoch ms), with their items, so the file and the jobs
   * panel do not grow with every job ever run. Jobs still running or waiting are kept whatever their age.
   * Returns the ids forgotten.
   */
  forgetEndedBefore(before: number): string[] {
    this.flush();
    const ids = this.#db.prepare(
      "SELECT id FROM jobs WHERE state NOT IN ('running', 'waiting') AND finished IS NOT NULL AND finished < ?",
    ).all(before).map((r) => String(r.id));
    if (ids.length === 0) return [];
    const items = this.#db.prepare("DELETE FROM items WHERE job = ?");
    const job = this.#db.prepare("DELETE FROM jobs WHERE id = ?");
    this.#db.exec("BEGIN");
    try {
      for (const id of ids) {
        items.run(id);
        job.run(id);
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    return ids;
  }

  setCredentials(id: string, sealed: string): void {
    this.#db.prepare("UPDATE jobs SET credentials = ? WHERE id = ?").run(sealed, id);
  }

  /**
   * One page of the listing: its objects as pending items and the listing's new position, together. Returns
   * the items with their sequence numbers.
   */
  addListed(
    id: string,
    objects: { key: string; size: number; etag: string }[],
    position: { index: number; after: string; listed: boolean },
  ): ItemRow[] {
    const next = Number(
      this.#db.prepare("SELECT COALESCE(MAX(seq), 0) AS n FROM items WHERE job = ?").get(id)!.n,
    );
    const insert = this.#db.prepare(
      "INSERT INTO items (job, seq, key, size, etag, status) VALUES (?, ?, ?, ?, ?, 'pending')",
    );
    const rows = objects.map((o, i) => ({
      seq: next + i + 1,
      ...o,
      status: "pending" as const,
      error: null,
    }));
    this.#db.exec("BEGIN");
    try {
      for (const row of rows) insert.run(id, row.seq, row.key, row.size, row.etag);
      this.#db.prepare("UPDATE jobs SET list_index = ?, list_after = ?, listed = ? WHERE id = ?")
        .run(position.index, position.after, position.listed ? 1 : 0, id);
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    return rows;
  }

  /** Items still to handle (pending, or copied and waiting for their source's removal), in order. */
  unfinished(id: string): ItemRow[] {
    return this.#db.prepare(
      "SELECT * FROM items WHERE job = ? AND status IN ('pending', 'copied') ORDER BY seq",
    ).all(id).map(itemOf);
  }

  failures(id: string, limit = 100): { key: string; error: string }[] {
    return this.#db.prepare(
      "SELECT key, error FROM items WHERE job = ? AND status = 'failed' ORDER BY seq LIMIT ?",
    ).all(id, limit).map((r) => ({ key: String(r.key), error: String(r.error ?? "") }));
  }

  counts(id: string): StatusCount[] {
    return this.#db.prepare(
      "SELECT status, COUNT(*) AS count, COALESCE(SUM(size), 0) AS bytes FROM items WHERE job = ? GROUP BY status",
    ).all(id).map((r) => ({
      status: String(r.status) as ItemStatus,
      count: Number(r.count),
      bytes: Number(r.bytes),
    }));
  }

  /** Records an item's new state (written with the next batch). */
  setItem(job: string, seq: number, status: ItemStatus, error: string | null = null): void {
    this.#pending.push({ job, seq, status, error });
    this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const batch = this.#pending.splice(0);
    const update = this.#db.prepare("UPDATE items SET status = ?, error = ? WHERE job = ? AND seq = ?");
    this.#db.exec("BEGIN");
    try {
      for (const u of batch) update.run(u.status, u.error, u.job, u.seq);
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  close(): void {
    this.flush();
    this.#db.close();
  }
}

function itemOf(r: Record<string, unknown>): ItemRow {
  return {
    seq: Number(r.seq),
    key: String(r.key),
    size: Number(r.size),
    etag: String(r.etag),
    status: String(r.status) as ItemStatus,
    error: r.error === null ? null : String(r.error),
  };
}
