/**
 * The audit log-search service, as MinIO Operator's Log Search API answers (minio-protocol-2 §3): a fetch
 * handler that knows no console, so it can run on its own listener for MinIO servers to deliver to, and
 * the console can query it in-process or over HTTP alike.
 *
 *   GET  /status                    200
 *   POST /api/ingest?token=…        audit entries (one JSON entry, or NDJSON lines) → 200; `{}` is MinIO's probe
 *   GET  /api/query?token=…&q=reqinfo|raw&fp=…&timeStart=…&timeEnd=…|last=…&timeAsc|timeDesc&pageSize=…&pageNo=…
 *                                    one page as a JSON array; with export=csv|ndjson every matching row, streamed
 *
 * Ingest is group-committed: concurrent deliveries share one transaction, and each answers once its rows are
 * stored. `prune()` applies retention (server.ts runs it hourly).
 */
import { timingSafeEqual } from "node:crypto";
import { type LogQuery, parseLogQuery, parseTime, QueryError } from "./query.ts";
import { formatMicros, IngestError, type RequestInfoRow, ROW_COLUMNS, rowOf } from "./rows.ts";
import type { AuditStore } from "./store.ts";

export interface LogSearchOptions {
  store: AuditStore;
  /** Token MinIO's audit webhook sends (`?token=` on its endpoint). */
  auditToken: string;
  /** Token the console sends with queries. */
  queryToken: string;
  /** Rows older than this go; 0 keeps everything. */
  retentionMs: number;
  now?: () => number;
}

export interface LogSearchService {
  fetch(request: Request): Promise<Response>;
  /** Drops rows older than the retention age; returns how many. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

/** Rows read from the store per step of an export. */
const EXPORT_PAGE = 1000;

/** A request-info row (`q=reqinfo`) or a stored entry (`q=raw`), as the service answers it. */
function outputRow(row: RequestInfoRow, raw: boolean): Record<string, unknown> {
  if (raw) return { event_time: formatMicros(row.time), log: row.log ? JSON.parse(row.log) : null };
  const out: Record<string, unknown> = {};
  for (const column of ROW_COLUMNS) out[column] = column === "time" ? formatMicros(row.time) : row[column];
  return out;
}

/** One CSV field: quoted when it holds a comma, quote or line break; null is empty. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const textValue = String(value);
  return /[",\r\n]/.test(textValue) ? `"${textValue.replace(/"/g, '""')}"` : textValue;
}

/** Rows gathered for one commit before it is started anyway. */
const BATCH_ROWS = 1000;
const BATCH_WINDOW_MS = 2;

const encoder = new TextEncoder();

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const text = (status: number, body = "") =>
  new Response(body, { status, headers: body ? { "content-type": "text/plain; charset=utf-8" } : {} });

export function createLogSearchService(options: LogSearchOptions): LogSearchService {
  const now = options.now ?? Date.now;
  let pending:
    | { rows: RequestInfoRow[]; waiters: { resolve: () => void; reject: (e: unknown) => void }[] }
    | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = null;
    if (!batch) return;
    try {
      await options.store.insert(batch.rows);
      for (const w of batch.waiters) w.resolve();
    } catch (error) {
      for (const w of batch.waiters) w.reject(error);
    }
  }

  function store(rows: RequestInfoRow[]): Promise<void> {
    return new Promise((resolve, reject) => {
      pending ??= { rows: [], waiters: [] };
      pending.rows.push(...rows);
      pending.waiters.push({ resolve, reject });
      if (pending.rows.length >= BATCH_ROWS) void flush();
      else timer ??= setTimeout(() => void flush(), BATCH_WINDOW_MS);
    });
  }

  async function ingest(request: Request, url: URL): Promise<Response> {
    if (request.method !== "POST") return text(400, "Non post request: <nil>\n");
    if (!tokenMatches(url.searchParams.get("token"), options.auditToken)) return text(403);
    const rows: RequestInfoRow[] = [];
    try {
      for (const line of (await request.text()).split("\n")) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line);
        if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
          throw new IngestError("an audit entry must be a JSON object");
        }
        if (Object.keys(entry).length === 0) continue; // MinIO's start-up probe
        rows.push(rowOf(entry, parseTime));
      }
    } catch (error) {
      return text(400, `Error parsing audit entry: ${error instanceof Error ? error.message : error}\n`);
    }
    if (rows.length === 0) return text(200);
    try {
      await store(rows);
      return text(200);
    } catch (error) {
      return text(500, `Error writing to DB: ${error instanceof Error ? error.message : error}\n`);
    }
  }

  async function query(url: URL): Promise<Response> {
    if (!tokenMatches(url.searchParams.get("token"), options.queryToken)) return text(403);
    let parsed;
    try {
      parsed = parseLogQuery(url.searchParams, now());
    } catch (error) {
      if (error instanceof QueryError) return text(400, `Bad params:: ${error.message}\n`);
      throw error;
    }
    if (parsed.export) return exportRows(parsed);
    try {
      const rows = await options.store.query(parsed);
      return new Response(`${JSON.stringify(rows.map((row) => outputRow(row, parsed.raw)))}\n`, {
        headers: { "content-type": "application/json" },
      });
    } catch (error) {
      return text(500, `Unhandled error:: ${error instanceof Error ? error.message : error}\n`);
    }
  }

  /**
   * Every matching row as a download, read from the store a page at a time as the client takes it, so an
   * export of millions of rows holds one page in memory. The first page is read before answering, so a
   * database error is still a 500.
   */
  async function exportRows(parsed: LogQuery): Promise<Response> {
    const csv = parsed.export === "csv";
    let page = 0;
    let rows: RequestInfoRow[];
    const read = () => options.store.query({ ...parsed, pageSize: EXPORT_PAGE, pageNumber: page++ });
    try {
      rows = await read();
    } catch (error) {
      return text(500, `Unhandled error:: ${error instanceof Error ? error.message : error}\n`);
    }
    const header = csv ? `${(parsed.raw ? ["event_time", "log"] : [...ROW_COLUMNS]).join(",")}\n` : "";
    const format = (row: RequestInfoRow) => {
      const out = outputRow(row, parsed.raw);
      return csv
        ? `${
          Object.values(out).map((v) => csvField(v === null || typeof v !== "object" ? v : JSON.stringify(v)))
            .join(",")
        }\n`
        : `${JSON.stringify(out)}\n`;
    };
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!first) {
          if (rows.length < EXPORT_PAGE) return controller.close();
          try {
            rows = await read();
          } catch (error) {
            return controller.error(error);
          }
          if (rows.length === 0) return controller.close();
        }
        controller.enqueue(encoder.encode((first ? header : "") + rows.map(format).join("")));
        first = false;
      },
    });
    return new Response(body, {
      headers: {
        "content-type": csv ? "text/csv" : "application/x-ndjson",
        "content-disposition": `attachment; filename=logs-export.${csv ? "csv" : "ndjson"}`,
      },
    });
  }

  async function prune(): Promise<number> {
    if (options.retentionMs <= 0) return 0;
    return await options.store.deleteBefore((now() - options.retentionMs) * 1000);
  }

  return {
    async fetch(request) {
      if (closed) return text(503, "log search is shutting down\n");
      const url = new URL(request.url);
      if (url.pathname === "/status") return text(200);
      if (url.pathname === "/api/ingest") return await ingest(request, url);
      if (url.pathname === "/api/query") return await query(url);
      return text(404, "404 page not found\n");
    },
    prune,
    async close() {
      closed = true;
      await flush();
      await options.store.close();
    },
  };
}
