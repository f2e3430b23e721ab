/**
 * Durable file writes: data goes to a temp file in the data directory, is fsynced, renamed into place, and the
 * directory is fsynced, so an acknowledged write survives `kill -9` and a reader never sees a partial file.
 *
 * Each file-system call goes through osCall (streams/calls.ts): a trace asking for `os` records sees it as
 * MinIO shows its own (`os.OpenFileW`, `os.Fdatasync`, `os.Rename`...); without one it costs a map check.
 */
import { osCall } from "../streams/calls.ts";

/**
 * fsync (fdatasync with `dataOnly`) of a file or directory through a descriptor of its own. Opening
 * (creating) files and directories runs on the thread pool: under concurrent writes the kernel can block it
 * for a while (journal, inode allocation), which must not stall the request thread. Renames stay
 * synchronous: they are quick and a thread-pool round trip costs more.
 */
async function syncByPath(path: string, dataOnly = false): Promise<void> {
  const file = await osCall("OpenFileR", path, () => Deno.open(path, { read: true }));
  try {
    await osCall(dataOnly ? "Fdatasync" : "Sync", path, () => (dataOnly ? file.syncData() : file.sync()));
  } finally {
    file.close();
  }
}

/**
 * Directory syncs coalesced per directory: a caller whose rename finished joins the next sync that has
 * not started yet (one that started earlier might not cover its rename). Concurrent writers into one
 * prefix then share a few fsyncs instead of paying one each, with the same durability guarantee.
 */
const dirSyncs = new Map<string, { running: Promise<void> | null; next: Promise<void> | null }>();

/** fsync a directory so a rename inside it is durable. */
export function syncDir(path: string): Promise<void> {
  let state = dirSyncs.get(path);
  if (!state) dirSyncs.set(path, state = { running: null, next: null });
  if (state.next) return state.next;
  const entry = state;
  const after = entry.running ?? Promise.resolve();
  const next: Promise<void> = after.catch(() => {}).then(async () => {
    entry.running = next;
    entry.next = null;
    try {
      await syncByPath(path);
    } finally {
      if (entry.running === next) {
        entry.running = null;
        if (!entry.next) dirSyncs.delete(path);
      }
    }
  });
  entry.next = next;
  return next;
}

/**
 * Writes synchronously on purpose: pausing between reads of a request body (as awaiting an async write does)
 * lets the receive window close, and Deno's fetch, the console's uploader, then takes tens of milliseconds
 * to resume sending (a 256 MiB upload took 20 to 40 s instead of 1 s). Writes land in the page cache, so
 * blocking is brief; durability still comes from the fsync in finish().
 */
function writeAll(file: Deno.FsFile, data: Uint8Array, path: string): void {
  osCall("Write", path, () => {
    let offset = 0;
    while (offset < data.length) offset += file.writeSync(data.subarray(offset));
  }, data.length);
}

/**
 * Dirty data of a large file is flushed in the background every this many bytes while it is written, so
 * the disk works while the body arrives and the fsync that acknowledges the write finds little left (a
 * 256 MiB upload otherwise spent about a third of its time in that final fsync).
 */
const FLUSH_BYTES = 16 * 1024 * 1024;

/** A temp file being written; commit() makes it durable at its final name, discard() removes it. */
export class TempFile {
  #unflushed = 0;
  #flushing: Promise<void> | null = null;
  #flushError: unknown = null;

  private constructor(readonly path: string, private file: Deno.FsFile | null) {}

  static async create(tmpDir: string): Promise<TempFile> {
    const path = `${tmpDir}/${crypto.randomUUID()}.tmp`;
    const file = await osCall(
      "OpenFileW",
      path,
      () => Deno.open(path, { write: true, createNew: true, mode: 0o600 }),
    );
    return new TempFile(path, file);
  }

  async write(data: Uint8Array): Promise<void> {
    this.writeSync(data);
  }

  writeSync(data: Uint8Array): void {
    if (!this.file) throw new Error("temp file closed");
    writeAll(this.file, data, this.path);
    this.#unflushed += data.length;
    if (this.#unflushed >= FLUSH_BYTES && !this.#flushing) {
      this.#unflushed = 0;
      // Through a descriptor of its own: the writer's is used synchronously meanwhile.
      this.#flushing = syncByPath(this.path, true)
        .catch((error) => void (this.#flushError ??= error))
        .finally(() => (this.#flushing = null));
    }
  }

  /** Flushes to disk and closes; the file stays at its temp path until moved. */
  async finish(): Promise<void> {
    if (!this.file) return;
    await this.#flushing;
    if (this.#flushError) throw this.#flushError;
    const file = this.file;
    await osCall("Sync", this.path, () => file.sync());
    file.close();
    this.file = null;
  }

  /** Finishes, renames to `target` and syncs the target directory. */
  async commit(target: string): Promise<void> {
    await this.finish();
    osCall("Rename", this.path, () => Deno.renameSync(this.path, target), 0, `${this.path} -> ${target}`);
    await syncDir(parentOf(target));
  }

  async discard(): Promise<void> {
    try {
      this.file?.close();
    } catch { /* already closed */ }
    this.file = null;
    await osCall("Remove", this.path, () => Deno.remove(this.path)).catch(() => {});
  }
}

/** Writes a small file atomically (temp + fsync + rename + dir fsync). */
export async function writeFileDurable(
  tmpDir: string,
  target: string,
  data: Uint8Array | string,
): Promise<void> {
  const temp = await TempFile.create(tmpDir);
  try {
    await temp.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
    await temp.commit(target);
  } catch (error) {
    await temp.discard();
    throw error;
  }
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/"));

/**
 * Creates `path` and whichever of its parents are missing, and returns once their entries are durable (the
 * parent of each new directory is synced): a file later acknowledged inside it cannot vanish with it.
 */
export function mkdirDurable(path: string): Promise<void> {
  return osCall("MkdirAll", path, () => mkdirAllDurable(path));
}

async function mkdirAllDurable(path: string): Promise<void> {
  const missing: string[] = [];
  for (let dir = path; dir; dir = parentOf(dir)) {
    try {
      await Deno.stat(dir);
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      missing.push(dir);
    }
  }
  for (const dir of missing.reverse()) {
    try {
      await Deno.mkdir(dir, { mode: 0o700 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  await Promise.all(missing.map((dir) => syncDir(parentOf(dir))));
}

/** Removes a file durably (missing is fine). */
export async function removeDurable(path: string): Promise<void> {
  try {
    await osCall("Remove", path, () => Deno.remove(path));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return;
  }
  await syncDir(parentOf(path)).catch(() => {});
}

/** Serialises async work per key (one writer at a time per object). */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
