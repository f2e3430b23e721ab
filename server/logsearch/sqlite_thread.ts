/**
 * The SQLite audit store on a thread of its own (sqlite_worker.ts). node:sqlite is synchronous: on the
 * console's thread, a search that scans (a `*text*` filter reads every row: 75 ms at 200,000 rows, seconds
 * at the millions a busy storage writes in an hour), the hourly retention delete and each WAL checkpoint
 * stopped every page and stream while it ran, and storing the audit records of a page load was a twentieth
 * of that thread's work. Calls travel as messages and are answered in order; a thread that dies fails the
 * calls it held and the next call starts another on the same file.
 */
import type { LogQuery } from "./query.ts";
import type { RequestInfoRow } from "./rows.ts";
import type { AuditStore } from "./store.ts";

/** A call to the store's thread. */
export type StoreCall =
  & { id: number }
  & (
    | { op: "open"; path: string }
    | { op: "insert"; rows: RequestInfoRow[] }
    | { op: "query"; query: LogQuery }
    | { op: "deleteBefore"; micros: number }
    | { op: "count" }
    | { op: "close" }
  );

/** The thread's answer to the call with the same id: its value, or what went wrong. */
export type StoreAnswer = { id: number; value?: unknown; error?: string };

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Distributes StoreCall's `op` over its variants, so each call keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

export class SqliteThreadStore implements AuditStore {
  #worker: Worker | null = null;
  /** The open call of the current thread: every other call waits for it. */
  #opened: Promise<unknown> = Promise.resolve();
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  private constructor(private readonly path: string) {}

  /** Opens (or creates) the file on a new thread; rejects with SQLite's reason when it cannot. */
  static async open(path: string): Promise<SqliteThreadStore> {
    const store = new SqliteThreadStore(path);
    try {
      await store.#start();
    } catch (error) {
      store.#stop();
      throw error;
    }
    return store;
  }

  /**
   * Test hook: ends the store's thread at once, with no close, as a fault that kills a thread would; the calls
   * it held fail and the next call starts another.
   */
  static killForTests(store: AuditStore): void {
    if (store instanceof SqliteThreadStore && store.#worker) {
      store.#stop("the audit store's thread stopped: ended by a test");
    }
  }

  #start(): Promise<unknown> {
    const worker = new Worker(new URL("./sqlite_worker.ts", import.meta.url), {
      type: "module",
      name: "audit-store",
    });
    worker.onmessage = (event: MessageEvent<StoreAnswer>) => {
      const { id, value, error } = event.data;
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(value);
    };
    worker.onerror = (event) => {
      event.preventDefault(); // the console carries on; the calls this thread held fail with the reason
      if (this.#worker === worker) this.#stop(`the audit store's thread stopped: ${event.message}`);
    };
    this.#worker = worker;
    this.#opened = this.#send({ op: "open", path: this.path });
    // A thread that could not open the file is ended, so the next call tries again.
    this.#opened.catch((error) => {
      if (this.#worker === worker) this.#stop(error.message);
    });
    return this.#opened;
  }

  /** Ends the thread; the calls it held fail with `reason`. */
  #stop(reason = "the audit store was closed"): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(new Error(reason));
    }
  }

  #send(call: WithoutId<StoreCall>): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker!.postMessage({ ...call, id } as StoreCall);
    });
  }

  async #call<T>(call: WithoutId<StoreCall>): Promise<T> {
    if (this.#closed) throw new Error("the audit store was closed");
    if (!this.#worker) this.#start().catch(() => {}); // the call below fails with the open's reason
    const send = this.#send(call);
    send.catch(() => {}); // when the open failed, its reason is the one to report
    await this.#opened;
    return await send as T;
  }

  insert(rows: RequestInfoRow[]): Promise<void> {
    return this.#call({ op: "insert", rows });
  }

  query(query: LogQuery): Promise<RequestInfoRow[]> {
    return this.#call({ op: "query", query });
  }

  deleteBefore(micros: number): Promise<number> {
    return this.#call({ op: "deleteBefore", micros });
  }

  count(): Promise<number> {
    return this.#call({ op: "count" });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#worker) await this.#call({ op: "close" });
    } finally {
      this.#closed = true;
      this.#stop();
    }
  }
}
