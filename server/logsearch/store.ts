/**
 * Where the log search keeps request-info rows: SQLite in a file by default (node:sqlite on a thread of its
 * own, no service to run: sqlite_thread.ts), PostgreSQL when a database URL is configured. Both index every
 * filter column together with the time, so a filtered page (`WHERE bucket = ? ORDER BY time DESC LIMIT 100`) reads only its page, at any table size;
 * bucket with API name, the commonest pair, has an index of its own.
 */
import type { LogQuery } from "./query.ts";
import type { RequestInfoRow } from "./rows.ts";

export interface AuditStore {
  insert(rows: RequestInfoRow[]): Promise<void>;
  query(query: LogQuery): Promise<RequestInfoRow[]>;
  /** Drops rows older than `micros` (retention); returns how many went. */
  deleteBefore(micros: number): Promise<number>;
  count(): Promise<number>;
  close(): Promise<void>;
}

/** Columns each get an index with the time, so equality and prefix filters page in time order. */
export const INDEXED_COLUMNS = [
  "bucket",
  "object",
  "api_name",
  "request_id",
  "user_agent",
  "response_status",
  "access_key",
] as const;

/** Opens the store a URL names: `postgres://…` (optional `schema=` parameter) or a SQLite file path. */
export async function openAuditStore(
  target: { databaseUrl: string; sqlitePath: string },
): Promise<AuditStore> {
  if (target.databaseUrl) {
    const { PostgresAuditStore } = await import("./postgres_store.ts");
    return await PostgresAuditStore.open(target.databaseUrl);
  }
  const { SqliteThreadStore } = await import("./sqlite_thread.ts");
  return await SqliteThreadStore.open(target.sqlitePath);
}
