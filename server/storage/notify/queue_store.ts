/**
 * A notification target's on-disk queue (the `queue_dir` of minio-protocol-2 §1.5, §1.8): events that are
 * accepted but not yet delivered, kept in order, across restarts and outages, up to a limit.
 *
 * Layout under `<queue_dir>/minio-<type>-<id>/`:
 *   0000000001.log …   segments of JSON lines (one event per line), appended with one fdatasync per batch
 *   cursor             "<segment> <offset>": where the first undelivered line starts
 *
 * An append is one write of a whole group of events, an acknowledgement one rewrite of the cursor (MinIO
 * writes one file per event; the format on disk is ours). Like MinIO's queue store, writes are not fsynced
 * one by one: they survive the process being killed at once (the page cache has them) and are flushed to
 * the disk within a second (SYNC_DELAY_MS), so a power loss can cost at most that last second of queued
 * events. Delivered segments are deleted once the cursor has passed them. A line cut short by a crash is
 * dropped at open. After a crash between a delivery and its cursor write, that batch is delivered again:
 * delivery is at least once, in order.
 */

const SEGMENT_BYTES = 8 * 1024 * 1024;
const CURSOR = "cursor";
/** Unsynced writes are flushed to the disk this long after the first of them. */
const SYNC_DELAY_MS = 1000;
/**
 * Recently appended lines are also kept in memory (up to this many bytes), so a target that keeps up is
 * fed without reading its queue back from the disk; older ones are read from their segment.
 */
const TAIL_CACHE_BYTES = 4 * 1024 * 1024;

interface Entry {
  segment: number;
  offset: number;
  length: number;
  /** The line itself while it is in the tail cache. */
  line?: string;
}

const segmentName = (n: number) => `${String(n).padStart(10, "0")}.log`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class QueueStore {
  /** Undelivered lines, oldest first. */
  #entries: Entry[] = [];
  #head = 0;
  #segment: number;
  #segmentSize: number;
  #file: Deno.FsFile | null = null;
  #cursorFile: Deno.FsFile | null = null;
  #lock: Promise<unknown> = Promise.resolve();
  #closed = false;
  #syncTimer: ReturnType<typeof setTimeout> | null = null;
  #cachedBytes = 0;

  private constructor(readonly dir: string, readonly limit: number, segment: number, size: number) {
    this.#segment = segment;
    this.#segmentSize = size;
  }

  /** Opens (creating) the queue in `dir`, recovering what an earlier run left there. */
  static async open(dir: string, limit: number): Promise<QueueStore> {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const cursorText = await Deno.readTextFile(`${dir}/${CURSOR}`).catch(() => "");
    const [cursorSegment, cursorOffset] = cursorText.trim().split(" ").map(Number);
    const segments: number[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const m = /^(\d{10})\.log$/.exec(entry.name);
      if (entry.isFile && m) segments.push(Number(m[1]));
    }
    segments.sort((a, b) => a - b);
    const startSegment = Number.isFinite(cursorSegment) && cursorSegment > 0
      ? cursorSegment
      : (segments[0] ?? 1);
    const entries: Entry[] = [];
    let last = startSegment;
    let lastSize = 0;
    for (const n of segments) {
      const path = `${dir}/${segmentName(n)}`;
      if (n < startSegment) {
        await Deno.remove(path).catch(() => {});
        continue;
      }
      const bytes = await Deno.readFile(path);
      let at = n === startSegment && Number.isFinite(cursorOffset) ? Math.min(cursorOffset, bytes.length) : 0;
      let end = at;
      while (at < bytes.length) {
        const nl = bytes.indexOf(10, at);
        if (nl === -1) break; // a line cut short by a crash: never acknowledged, dropped below
        if (nl > at) entries.push({ segment: n, offset: at, length: nl - at });
        at = nl + 1;
        end = at;
      }
      if (end < bytes.length) await Deno.truncate(path, end);
      last = n;
      lastSize = end;
    }
    const store = new QueueStore(dir, limit, last, lastSize);
    store.#entries = entries;
    return store;
  }

  /** Events waiting for delivery. */
  get length(): number {
    return this.#entries.length - this.#head;
  }

  /**
   * Appends events durably, in order, as many as the limit allows; resolves with how many were refused
   * because the queue was full (the caller counts and reports them).
   */
  append(lines: string[]): Promise<number> {
    return this.#exclusive(async () => {
      this.#checkOpen();
      const room = Math.max(0, this.limit - this.length);
      const accepted = lines.slice(0, room);
      if (accepted.length === 0) return lines.length;
      if (this.#segmentSize >= SEGMENT_BYTES) await this.#roll();
      const file = await this.#currentFile();
      const texts = accepted.map((line) => line.replace(/\n/g, " "));
      const parts = texts.map((line) => encoder.encode(line + "\n"));
      const buffer = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (let i = 0; i < parts.length; i++) {
        buffer.set(parts[i], at);
        const entry: Entry = {
          segment: this.#segment,
          offset: this.#segmentSize + at,
          length: parts[i].length - 1,
        };
        if (this.#cachedBytes < TAIL_CACHE_BYTES) {
          entry.line = texts[i];
          this.#cachedBytes += entry.length;
        }
        this.#entries.push(entry);
        at += parts[i].length;
      }
      // A synchronous write into the page cache is quicker than a trip through the thread pool.
      let written = 0;
      while (written < buffer.length) written += file.writeSync(buffer.subarray(written));
      this.#scheduleSync();
      this.#segmentSize += buffer.length;
      return lines.length - accepted.length;
    });
  }

  /** The oldest `max` undelivered events, in order (they stay queued until `ack`). */
  async peek(max: number): Promise<string[]> {
    const wanted = this.#entries.slice(this.#head, this.#head + max);
    if (wanted.every((e) => e.line !== undefined)) return wanted.map((e) => e.line!);
    const out: string[] = [];
    let i = 0;
    while (i < wanted.length) {
      if (wanted[i].line !== undefined) {
        out.push(wanted[i++].line!);
        continue;
      }
      // Read each run of lines from one segment with a single read.
      let j = i;
      while (
        j + 1 < wanted.length && wanted[j + 1].segment === wanted[i].segment &&
        wanted[j + 1].line === undefined
      ) j++;
      const from = wanted[i].offset;
      const to = wanted[j].offset + wanted[j].length;
      const file = await Deno.open(`${this.dir}/${segmentName(wanted[i].segment)}`, { read: true });
      try {
        await file.seek(from, Deno.SeekMode.Start);
        const bytes = new Uint8Array(to - from);
        let read = 0;
        while (read < bytes.length) {
          const n = await file.read(bytes.subarray(read));
          if (n === null) throw new Error(`queue segment ${wanted[i].segment} is shorter than its index`);
          read += n;
        }
        for (let k = i; k <= j; k++) {
          out.push(
            decoder.decode(
              bytes.subarray(wanted[k].offset - from, wanted[k].offset - from + wanted[k].length),
            ),
          );
        }
      } finally {
        file.close();
      }
      i = j + 1;
    }
    return out;
  }

  /** Marks the oldest `count` events delivered: the cursor moves past them durably. */
  ack(count: number): Promise<void> {
    return this.#exclusive(async () => {
      this.#checkOpen();
      if (count <= 0) return;
      const acked = this.#entries.slice(this.#head, this.#head + count);
      const lastAcked = acked[acked.length - 1];
      this.#head += acked.length;
      const next = this.#entries[this.#head];
      const cursor = next
        ? `${next.segment} ${next.offset}`
        : `${lastAcked.segment} ${lastAcked.offset + lastAcked.length + 1}`;
      await this.#writeCursor(cursor);
      // Segments wholly behind the cursor are no longer needed.
      const keepFrom = next ? next.segment : this.#segment;
      const behind = new Set<number>();
      for (const entry of acked) {
        if (entry.line !== undefined) this.#cachedBytes -= entry.length;
        if (entry.segment < keepFrom && entry.segment !== this.#segment) behind.add(entry.segment);
      }
      for (const seg of behind) await Deno.remove(`${this.dir}/${segmentName(seg)}`).catch(() => {});
      // Drop delivered entries now and then, not on every acknowledgement (that would copy the queue each time).
      if (this.#head > 1024 || this.#head === this.#entries.length) {
        this.#entries = this.#entries.slice(this.#head);
        this.#head = 0;
      }
      // An emptied queue starts a fresh segment once the current one has grown, so files do not only grow.
      if (this.length === 0 && this.#segmentSize > 1024 * 1024) await this.#roll();
    });
  }

  close(): Promise<void> {
    return this.#exclusive(async () => {
      if (this.#syncTimer !== null) {
        clearTimeout(this.#syncTimer);
        this.#syncTimer = null;
        await this.#syncNow();
      }
      this.#closed = true;
      this.#file?.close();
      this.#cursorFile?.close();
      this.#file = this.#cursorFile = null;
    });
  }

  /** Flushes queued events and the cursor to the disk soon, once for everything written meanwhile. */
  #scheduleSync(): void {
    if (this.#syncTimer !== null) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = null;
      this.#exclusive(() => this.#syncNow()).catch(() => {});
    }, SYNC_DELAY_MS);
    Deno.unrefTimer(this.#syncTimer as unknown as number);
  }

  async #syncNow(): Promise<void> {
    await this.#file?.syncData().catch(() => {});
    await this.#cursorFile?.syncData().catch(() => {});
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("queue store is closed");
  }

  async #currentFile(): Promise<Deno.FsFile> {
    if (!this.#file) {
      this.#file = await Deno.open(`${this.dir}/${segmentName(this.#segment)}`, {
        create: true,
        append: true,
        mode: 0o600,
      });
    }
    return this.#file;
  }

  /** Starts a new segment; an older one with nothing left to deliver is removed. */
  async #roll(): Promise<void> {
    const old = this.#segment;
    await this.#file?.syncData();
    this.#file?.close();
    this.#file = null;
    this.#segment = old + 1;
    this.#segmentSize = 0;
    await this.#currentFile();
    await syncPath(this.dir);
    if (this.length === 0) {
      await this.#writeCursor(`${this.#segment} 0`);
      await Deno.remove(`${this.dir}/${segmentName(old)}`).catch(() => {});
    }
  }

  /** The cursor is one short line rewritten in place (fixed width, so a rewrite never leaves old bytes). */
  async #writeCursor(text: string): Promise<void> {
    if (!this.#cursorFile) {
      this.#cursorFile = await Deno.open(`${this.dir}/${CURSOR}`, {
        create: true,
        write: true,
        read: true,
        mode: 0o600,
      });
      await syncPath(this.dir);
    }
    const line = encoder.encode(text.padEnd(31, " ") + "\n");
    this.#cursorFile.seekSync(0, Deno.SeekMode.Start);
    let written = 0;
    while (written < line.length) written += this.#cursorFile.writeSync(line.subarray(written));
    this.#scheduleSync();
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => {});
    return run;
  }
}

async function syncPath(path: string): Promise<void> {
  const file = await Deno.open(path, { read: true });
  try {
    await file.sync();
  } finally {
    file.close();
  }
}
