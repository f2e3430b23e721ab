/**
 * Whole-bucket search: a scan of every key under a prefix, one storage page (1,000 keys) at a time,
 * matching each key (relative to the prefix) by substring or glob. Hits and progress are yielded as they
 * are found, so the browser sees the first hit after the first page; the scan stops when the caller's
 * signal aborts (the user cancels or leaves).
 *
 * The console serves everyone from one thread, so a search never holds it for long: matching runs in slices
 * of a few milliseconds and gives the event loop back between them (and between pages), and a glob's
 * length is bounded, which bounds the work per key (glob_match.ts).
 */
import type { SearchEvent } from "../../lib/contract/objects.ts";
import { ApiError } from "../http/errors.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { listObjectsV2 } from "../../lib/s3/ops/objects.ts";
import { globMatcher, MAX_GLOB_LENGTH } from "./glob_match.ts";

export interface SearchInput {
  prefix: string;
  /** Text to find, or a glob (`*` any run of characters, `?` one character) in glob mode. */
  query: string;
  mode: "substring" | "glob";
  /** Stop after this many hits (the browser cannot show millions anyway). */
  maxHits?: number;
}

/** A matcher for the query: substring (case-insensitive) or a whole-key glob. */
export function keyMatcher(input: Pick<SearchInput, "query" | "mode">): (relativeKey: string) => boolean {
  if (input.query === "") {
    throw ApiError.badRequest("search text is required", "type something to search for");
  }
  if (input.mode === "substring") {
    const needle = input.query.toLowerCase();
    return (key) => key.toLowerCase().includes(needle);
  }
  if (input.query.length > MAX_GLOB_LENGTH) {
    throw ApiError.badRequest(
      `A glob pattern must be at most ${MAX_GLOB_LENGTH} characters`,
      `the pattern holds ${input.query.length} characters`,
    );
  }
  return globMatcher(input.query);
}

/**
 * Matching time after which the scan lets other requests run: the longest another request waits for it. Each
 * pause costs up to 4 ms (nested timers are clamped), so shorter slices would make the search itself slower.
 */
const SLICE_MS = 12;
/**
 * A timer, not `setImmediate`: Deno runs immediates without polling the network, so a request that arrived
 * meanwhile (another user's page, /healthz) would still wait for the whole page of keys to be matched.
 */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Scans and yields hits, a progress event per storage page, and a final summary. */
export async function* searchObjects(
  client: S3Client,
  bucket: string,
  input: SearchInput,
  signal: AbortSignal,
): AsyncGenerator<SearchEvent> {
  const matches = keyMatcher(input);
  const maxHits = input.maxHits ?? 10_000;
  let scanned = 0, hits = 0;
  let token: string | undefined;
  do {
    if (signal.aborted) return;
    const page = await listObjectsV2(client, bucket, { prefix: input.prefix, continuationToken: token });
    let sliceStart = performance.now();
    for (const object of page.objects) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        if (signal.aborted) return;
        sliceStart = performance.now();
      }
      scanned++;
      if (!matches(object.key.slice(input.prefix.length))) continue;
      hits++;
      yield {
        type: "hit",
        object: {
          name: object.key,
          size: object.size,
          last_modified: object.lastModified,
          etag: object.etag,
          version_id: null,
        },
      };
      if (hits >= maxHits) {
        yield { type: "done", scanned, hits };
        return;
      }
    }
    yield { type: "progress", scanned };
    token = page.isTruncated ? page.nextContinuationToken : undefined;
    if (token) await nextTurn();
  } while (token);
  yield { type: "done", scanned, hits };
}
