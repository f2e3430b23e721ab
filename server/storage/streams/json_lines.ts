/**
 * How the storage streams to a client (trace, console log, ListenBucketNotification, heal start, health
 * info; minio-protocol §3.14-3.16, §5.20): one JSON value per line, and a keep-alive when nothing was
 * written for a while so proxies and clients know the stream lives.
 *
 * The body is pull-based (high-water mark 0): a value is taken from the source only when the connection
 * wants bytes, so a client that stops reading stops the pulling and the source's own bound applies (a hub
 * subscription drops its oldest items). Cancelling the body (the client went away) returns the source
 * iterator at once, which ends the work behind it. (Deno.serve's request.signal cannot tell: it also aborts
 * once a response is handed over, so streams never rely on it.)
 */

const encoder = new TextEncoder();

export interface JsonLinesOptions {
  /** Written after this much idle time. */
  keepAliveMs: number;
  /** What a keep-alive is: MinIO writes a single space for most streams, `{"Records":null}\n` for listen with ping. */
  keepAlive?: string;
  /** Sent before anything from the source (a replayed history, say). */
  first?: unknown[];
  /** Called once when the stream ends for any reason. */
  onEnd?: () => void;
}

const TIMEOUT = Symbol("timeout");

/** Encodes one value as a line. */
export const jsonLine = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);

/** A `text/event-stream` response streaming the source's values as JSON lines. */
export function jsonLinesResponse(
  source: AsyncIterable<unknown>,
  options: JsonLinesOptions,
  headers: Record<string, string> = {},
): Response {
  return new Response(jsonLinesBody(source, options), {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      ...headers,
    },
  });
}

export function jsonLinesBody(
  source: AsyncIterable<unknown>,
  options: JsonLinesOptions,
): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const keepAlive = encoder.encode(options.keepAlive ?? " ");
  const first = [...(options.first ?? [])];
  let pending: Promise<IteratorResult<unknown>> | null = null;
  let ended = false;
  let started = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.onEnd?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first.length) return controller.enqueue(jsonLine(first.shift()));
      // The headers go out with the first bytes (as MinIO flushes them at once): a keep-alive, right away.
      if (!started) {
        started = true;
        return controller.enqueue(keepAlive);
      }
      pending ??= iterator.next();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<typeof TIMEOUT>((
        resolve,
      ) => (timer = setTimeout(() => resolve(TIMEOUT), options.keepAliveMs)));
      try {
        const next = await Promise.race([pending, idle]);
        if (next === TIMEOUT) return controller.enqueue(keepAlive);
        pending = null;
        if (next.done) {
          end();
          return controller.close();
        }
        controller.enqueue(jsonLine(next.value));
      } catch (error) {
        end();
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    async cancel() {
      end();
      await iterator.return?.();
    },
  }, { highWaterMark: 0 });
}

/** Maps an async iterable lazily; returning the mapped iterator returns the source (so a cancel ends it). */
export function mapStream<T, U>(
  source: AsyncIterableIterator<T>,
  fn: (item: T) => U,
): AsyncIterableIterator<U> {
  const mapped: AsyncIterableIterator<U> = {
    async next() {
      const next = await source.next();
      return next.done ? { value: undefined, done: true } : { value: fn(next.value), done: false };
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}

/**
 * Interleaves several streams (trace's request, storage and os subscriptions) in arrival order, each
 * source's own order kept. It holds at most one value per source, so each source's bound still applies;
 * sources are tried in turn so a busy one cannot starve the others. Returning it returns every source.
 */
export function mergeStreams<T>(sources: AsyncIterableIterator<T>[]): AsyncIterableIterator<T> {
  type Settled = { index: number; result: IteratorResult<T> };
  const pending = new Map<number, Promise<Settled>>();
  const arm = (index: number) =>
    pending.set(index, sources[index].next().then((result) => ({ index, result })));
  sources.forEach((_, index) => arm(index));
  let turn = 0;
  let ended = false;
  const merged: AsyncIterableIterator<T> = {
    async next() {
      while (!ended && pending.size) {
        const waiting = [...pending.values()];
        const start = turn++ % waiting.length;
        const { index, result } = await Promise.race([...waiting.slice(start), ...waiting.slice(0, start)]);
        if (ended) break;
        if (result.done) {
          pending.delete(index);
          continue;
        }
        arm(index);
        return { value: result.value, done: false };
      }
      return { value: undefined, done: true };
    },
    async return() {
      ended = true;
      pending.clear();
      await Promise.all(sources.map((source) => source.return?.()));
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => merged,
  };
  return merged;
}
