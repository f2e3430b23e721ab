/**
 * SelectObjectContent (MinIO's S3 Select): an SQL query over a CSV or JSON object (plain, GZIP or BZIP2),
 * answered as an event stream of Records (batched), Cont while a scan finds nothing, Progress when asked,
 * Stats and End; a failure once the answer has started ends it with an error message. Request and query
 * errors found before the first row are ordinary S3 errors.
 */
import { sseForRead } from "../sse/request.ts";
import {
  continuationMessage,
  endMessage,
  errorMessage,
  progressMessage,
  recordsMessage,
  type ScanStats,
  statsMessage,
} from "../select/event_stream.ts";
import { inputRows, type ScanCounters } from "../select/input.ts";
import { rowWriter } from "../select/output.ts";
import { parseSelectRequest, selectError } from "../select/request.ts";
import { selectRows } from "../select/run.ts";
import { parseSelect } from "../select/sql_parser.ts";
import { bucketOf, readXmlBody, type S3Request } from "./context.ts";
import { checkKey, readTarget } from "./object_read.ts";
import { StoreError } from "../core/errors.ts";
import { readVersion } from "../fs/read.ts";
import { notifyObject } from "../events/records.ts";

/** Records are sent in messages of about this many bytes (MinIO's are under 128 KiB). */
const BATCH_BYTES = 64 * 1024;
/** A scan that sends nothing for this long sends a Cont message, as MinIO does every second. */
const KEEP_ALIVE_MS = 1000;

const encoder = new TextEncoder();

/** The bytes a ScanRange selects: [start, end] inclusive, from start on, or the last `end` bytes. */
function scanWindow(range: { start?: number; end?: number } | undefined, size: number) {
  if (!range) return { start: 0, length: size };
  if (range.start === undefined) {
    return { start: Math.max(0, size - range.end!), length: Math.min(size, range.end!) };
  }
  const start = Math.min(range.start, size);
  const end = range.end === undefined ? size - 1 : Math.min(range.end, size - 1);
  return { start, length: Math.max(0, end - start + 1) };
}

export async function selectObjectContent(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const state = bucketOf(ctx);
  const request = parseSelectRequest(await readXmlBody(ctx));
  const statement = parseSelect(request.expression);
  if (statement.fromPath.length && request.input.format !== "JSON") {
    throw selectError("DataSourcePathUnsupported", "Data source: path not supported");
  }
  const version = readTarget(ctx, state);
  const sse = await sseForRead(ctx, version);
  const { start, length } = scanWindow(request.scanRange, version.size);
  const body = await readVersion(ctx.store, ctx.bucket, ctx.key, version, start, length, sse.decrypt);
  const counters: ScanCounters = { bytesScanned: 0, bytesProcessed: 0 };
  const rows = selectRows(statement, inputRows(body, request.input, counters));
  // The first row is read before answering, so a corrupt file or a bad query is an ordinary error.
  let first: IteratorResult<[string, unknown][]>;
  try {
    first = await rows.next();
  } catch (error) {
    await body.cancel().catch(() => {});
    throw error;
  }
  notifyObject(ctx, "s3:ObjectAccessed:Get", ctx.key, version);
  return new Response(eventStream(rows, first, request, counters), {
    headers: { "content-type": "application/octet-stream", ...sse.headers },
  });
}

function eventStream(
  rows: AsyncGenerator<[string, unknown][]>,
  first: IteratorResult<[string, unknown][]>,
  request: ReturnType<typeof parseSelectRequest>,
  counters: ScanCounters,
): ReadableStream<Uint8Array> {
  const write = rowWriter(request.output);
  let bytesReturned = 0;
  let lastSent = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stats = (): ScanStats => ({ ...counters, bytesReturned });
  let pending: IteratorResult<[string, unknown][]> | null = first;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        if (Date.now() - lastSent >= KEEP_ALIVE_MS) {
          lastSent = Date.now();
          controller.enqueue(continuationMessage());
        }
      }, KEEP_ALIVE_MS);
    },
    async pull(controller) {
      const send = (message: Uint8Array) => {
        lastSent = Date.now();
        controller.enqueue(message);
      };
      try {
        let batch = "", done = false;
        for (;;) {
          const next = pending ?? await rows.next();
          pending = null;
          if (next.done) {
            done = true;
            break;
          }
          batch += write(next.value);
          if (batch.length >= BATCH_BYTES) break;
        }
        if (batch) {
          const payload = encoder.encode(batch);
          bytesReturned += payload.length;
          send(recordsMessage(payload));
        }
        if (!done) return;
        if (request.progress) send(progressMessage(stats()));
        send(statsMessage(stats()));
        send(endMessage());
      } catch (error) {
        const failure = error instanceof StoreError ? error : null;
        if (!failure) console.error(`embedded storage: select failed: ${(error as Error).stack ?? error}`);
        send(
          errorMessage(
            failure?.code ?? "InternalError",
            failure?.message ?? "We encountered an internal error, please try again.",
          ),
        );
      }
      clearInterval(timer);
      controller.close();
    },
    async cancel() {
      clearInterval(timer);
      await rows.return(undefined);
    },
  });
}
