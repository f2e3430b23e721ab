/**
 * The default audit store: one SQLite file through node:sqlite. WAL journal, one transaction per ingest
 * batch, case-sensitive LIKE (as PostgreSQL's), and an index per filter column with the time.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { LogQuery } from "./query.ts";
import { type RequestInfoRow, ROW_COLUMNS } from "./rows.ts";
import { type AuditStore, INDEXED_COLUMNS } from "./store.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS request_info (
  id INTEGER PRIMARY KEY,
  time INTEGER NOT NULL,
  api_name TEXT NOT NULL,
  access_key TEXT,
  bucket TEXT,
  object TEXT,
  time_to_response_ns INTEGER,
  remote_host TEXT,
  request_id TEXT,
  user_agent TEXT,
  response_status TEXT,
  response_status_code INTEGER,
  request_content_length INTEGER,
  response_content_length INTEGER,
  log TEXT
);
CREATE INDEX IF NOT EXISTS request_info_time ON request_info (time, id);
${
  INDEXED_COLUMNS.map((c) => `CREATE INDEX IF NOT EXISTS request_info_${c} ON request_info (${c}, time, id);`)
    .join("\n")
}
CREATE INDEX IF NOT EXISTS request_info_bucket_api_name ON request_info (bucket, api_name, time, id);
`;

export class SqliteAuditStore implements AuditStore {
  readonly #insert: StatementSync;

  private constructor(private readonly db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO request_info (${ROW_COLUMNS.join(", ")}, log) VALUES (${
        ROW_COLUMNS.map(() => "?").join(", ")
      }, ?)`,
    );
  }

  static open(path: string): SqliteAuditStore {
    const db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA case_sensitive_like = ON;");
    db.exec(SCHEMA);
    // Files made before raw entries were kept get the column (empty for their rows).
    const columns = db.prepare("PRAGMA table_info(request_info)").all() as { name: string }[];
    if (!columns.some((c) => c.name === "log")) db.exec("ALTER TABLE request_info ADD COLUMN log TEXT");
    // Statistics let the planner pick the most selective index when several filters apply.
    db.exec("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002;");
    return new SqliteAuditStore(db);
  }

  insert(rows: RequestInfoRow[]): Promise<void> {
    this.db.exec("BEGIN");
    try {
      for (const row of rows) this.#insert.run(...ROW_COLUMNS.map((c) => row[c]), row.log ?? null);
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
    return Promise.resolve();
  }

  query(query: LogQuery): Promise<RequestInfoRow[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    for (const filter of query.filters) {
      // Column names come from the fixed filter list; values are bound parameters.
      if (filter.op === "=") where.push(`${filter.column} = ?`), params.push(filter.value);
      else where.push(`${filter.column} LIKE ? ESCAPE '\\'`), params.push(filter.pattern);
    }
    if (query.timeStart !== null) where.push("time >= ?"), params.push(query.timeStart);
    if (query.timeEnd !== null) where.push("time < ?"), params.push(query.timeEnd);
    const order = query.descending ? "DESC" : "ASC";
    const sql = `SELECT ${ROW_COLUMNS.join(", ")}${query.raw ? ", log" : ""} FROM request_info ${
      where.length ? `WHERE ${where.join(" AND ")}` : ""
    } ORDER BY time ${order}, id ${order} LIMIT ? OFFSET ?`;
    params.push(query.pageSize, query.pageNumber * query.pageSize);
    return Promise.resolve(this.db.prepare(sql).all(...params) as unknown as RequestInfoRow[]);
  }

  /** Retention, and a refresh of the planner's statistics as the table grows (hourly with retention). */
  deleteBefore(micros: number): Promise<number> {
    const result = this.db.prepare("DELETE FROM request_info WHERE time < ?").run(micros);
    this.db.exec("PRAGMA optimize;");
    return Promise.resolve(Number(result.changes));
  }

  count(): Promise<number> {
    return Promise.resolve(
      Number((this.db.prepare("SELECT count(*) AS n FROM request_info").get() as { n: number }).n),
    );
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
