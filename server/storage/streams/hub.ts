/**
 * One publisher, many bounded subscribers: the storage's live streams (requests for trace, metrics and audit;
 * bucket events for ListenBucketNotification and notification targets; its own log) all go through a Hub.
 *
 * Two kinds of listener:
 * - `sink(fn)`: called synchronously for every item, in publish order. For in-process consumers that keep up
 *   by construction (counters, a durable queue that appends). A sink that throws is logged and kept.
 * - `subscribe()`: an async iterator with a bounded queue, for remote readers (an HTTP stream to a slow
 *   client). When the reader falls behind by more than `capacity` items, the oldest are dropped and counted,
 *   so a stalled reader never makes the server buffer without limit. Aborting the signal (the client went
 *   away) ends the iteration at once and frees the queue.
 *
 * Publishing costs nothing measurable when no one listens; check `active` before building an expensive item.
 */

export interface SubscribeOptions<T> {
  /** Items kept for a reader that falls behind; older ones are dropped (default 1,000). */
  capacity?: number;
  /** Ends the subscription when aborted. */
  signal?: AbortSignal;
  /** Only items for which this returns true are queued. */
  filter?: (item: T) => boolean;
}

export interface Subscription<T> extends AsyncIterableIterator<T> {
  /** Items dropped so far because the reader fell behind; reading it resets it to 0. */
  takeDropped(): number;
  close(): void;
}

type Sink<T> = (item: T) => void;

export class Hub<T> {
  #sinks = new Set<Sink<T>>();
  #subscribers = new Set<Queue<T>>();
  #closed = false;

  constructor(
    private readonly onSinkError: (error: unknown) => void = (error) =>
      console.error("stream sink failed:", error),
  ) {}

  /** Whether anyone listens: build costly items only then. */
  get active(): boolean {
    return this.#sinks.size > 0 || this.#subscribers.size > 0;
  }

  /** Number of remote subscribers (for tests and health reports). */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  publish(item: T): void {
    for (const sink of this.#sinks) {
      try {
        sink(item);
      } catch (error) {
        this.onSinkError(error);
      }
    }
    for (const queue of this.#subscribers) queue.offer(item);
  }

  /**
   * Ends every subscription, now and later (server shutdown): streaming responses finish, so a graceful
   * shutdown does not wait forever for clients that never hang up.
   */
  close(): void {
    this.#closed = true;
    for (const queue of [...this.#subscribers]) queue.close();
  }

  /** Adds a synchronous listener; returns its removal. */
  sink(fn: Sink<T>): () => void {
    this.#sinks.add(fn);
    return () => this.#sinks.delete(fn);
  }

  subscribe(options: SubscribeOptions<T> = {}): Subscription<T> {
    const queue = new Queue<T>(
      options.capacity ?? 1000,
      options.filter,
      () => this.#subscribers.delete(queue),
    );
    if (this.#closed) {
      queue.close();
      return queue;
    }
    this.#subscribers.add(queue);
    if (options.signal) {
      if (options.signal.aborted) queue.close();
      else options.signal.addEventListener("abort", () => queue.close(), { once: true });
    }
    return queue;
  }
}

class Queue<T> implements Subscription<T> {
  #items: T[] = [];
  #head = 0;
  #dropped = 0;
  #closed = false;
  #waiting: ((result: IteratorResult<T>) => void) | null = null;

  constructor(
    private readonly capacity: number,
    private readonly filter: ((item: T) => boolean) | undefined,
    private readonly onClose: () => void,
  ) {}

  offer(item: T): void {
    if (this.#closed || (this.filter && !this.filter(item))) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ value: item, done: false });
      return;
    }
    if (this.#items.length - this.#head >= this.capacity) {
      this.#head++;
      this.#dropped++;
    }
    this.#items.push(item);
    // Compact now and then so a long-lived queue does not keep consumed slots.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head++];
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  takeDropped(): number {
    const dropped = this.#dropped;
    this.#dropped = 0;
    return dropped;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
    this.onClose();
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
