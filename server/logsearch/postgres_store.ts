/**
 * The audit store on PostgreSQL (the pinned `postgres` client), for deployments that already run one. Tables
 * live in their own schema (default `deck_logsearch`, or `?schema=` on the URL). Rows go in as one JSON
 * parameter per batch (microsecond times survive), and every value of a query is a bound parameter.
 */
import postgres from "postgres";
import type { LogQuery } from "./query.ts";
import { type RequestInfoRow, ROW_COLUMNS } from "./rows.ts";
import { formatMicros } from "./rows.ts";
import { type AuditStore, INDEXED_COLUMNS } from "./store.ts";
import { parseTime } from "./query.ts";

const COLUMN_TYPES: Record<(typeof ROW_COLUMNS)[number], string> = {
  time: "timestamptz",
  api_name: "text",
  access_key: "text",
  bucket: "text",
  object: "text",
  time_to_response_ns: "int8",
  remote_host: "text",
  request_id: "text",
  user_agent: "text",
  response_status: "text",
  response_status_code: "int8",
  request_content_length: "int8",
  response_content_length: "int8",
};

type Sql = ReturnType<typeof postgres>;

export class PostgresAuditStore implements AuditStore {
  private constructor(private readonly sql: Sql, private readonly table: string) {}

  static async open(databaseUrl: string): Promise<PostgresAuditStore> {
    const url = new URL(databaseUrl);
    const schema = url.searchParams.get("schema") ?? "deck_logsearch";
    url.searchParams.delete("schema");
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new Error(`log search schema "${schema}" must be a lower-case SQL identifier`);
    }
    // Unnamed statements: each query is planned with its own values (a cached generic plan with an unknown
    // LIMIT can prefer a full sort over walking the (column, time) index).
    const sql = postgres(url.href, { max: 4, onnotice: () => {}, idle_timeout: 30, prepare: false });
    const table = `"${schema}".request_info`;
    await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await sql.unsafe(
      `CREATE TABLE IF NOT EXISTS ${table} (id bigserial PRIMARY KEY, ${
        ROW_COLUMNS.map((c) =>
          `${c} ${COLUMN_TYPES[c]}${c === "time" || c === "api_name" ? " NOT NULL" : ""}`
        ).join(", ")
      })`,
    );
    // Raw entries (q=raw); tables made before they were kept get the column.
    await sql.unsafe(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS log text`);
    await sql.unsafe(`CREATE INDEX IF NOT EXISTS request_info_time_index ON ${table} (time, id)`);
    // text_pattern_ops serves both equality and LIKE 'prefix%' whatever the database collation.
    for (const column of INDEXED_COLUMNS) {
      await sql.unsafe(
        `CREATE INDEX IF NOT EXISTS request_info_${column}_index ON ${table} (${column} text_pattern_ops, time, id)`,
      );
    }
    // The most common pair of filters (a bucket's calls of one API) gets its own index.
    await sql.unsafe(
      `CREATE INDEX IF NOT EXISTS request_info_bucket_api_name_index ON ${table} (bucket, api_name, time, id)`,
    );
    return new PostgresAuditStore(sql, table);
  }

  async insert(rows: RequestInfoRow[]): Promise<void> {
    if (rows.length === 0) return;
    const json = rows.map((row) => ({ ...row, time: formatMicros(row.time), log: row.log ?? null }));
    const columns = `${ROW_COLUMNS.join(", ")}, log`;
    await this.sql.unsafe(
      `INSERT INTO ${this.table} (${columns}) SELECT ${columns} FROM json_to_recordset($1::json) AS x(${
        ROW_COLUMNS.map((c) => `${c} ${COLUMN_TYPES[c]}`).join(", ")
      }, log text)`,
      // deno-lint-ignore no-explicit-any -- postgres.js serialises a json-typed parameter itself
      [json as any],
    );
  }

  async query(query: LogQuery): Promise<RequestInfoRow[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const bind = (value: string | number) => (params.push(value), `$${params.length}`);
    for (const filter of query.filters) {
      // Column names come from the fixed filter list; values are bound parameters.
      if (filter.op === "=") where.push(`${filter.column} = ${bind(filter.value)}`);
      else where.push(`${filter.column} LIKE ${bind(filter.pattern)}`);
    }
    if (query.timeStart !== null) where.push(`time >= ${bind(formatMicros(query.timeStart))}::timestamptz`);
    if (query.timeEnd !== null) where.push(`time < ${bind(formatMicros(query.timeEnd))}::timestamptz`);
    const order = query.descending ? "DESC" : "ASC";
    const selected = ROW_COLUMNS.map((
      c,
    ) => (c === "time" ? `to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time` : c))
      .join(", ") + (query.raw ? ", log" : "");
    // Ordered by the table's column (t.time), not the text the select list also calls "time".
    const text = `SELECT ${selected} FROM ${this.table} t ${
      where.length ? `WHERE ${where.join(" AND ")}` : ""
    } ORDER BY t.time ${order}, t.id ${order} LIMIT ${bind(query.pageSize)} OFFSET ${
      bind(query.pageNumber * query.pageSize)
    }`;
    const rows = await this.sql.unsafe(text, params);
    return rows.map((row) => {
      const out = {} as Record<string, unknown>;
      for (const column of ROW_COLUMNS) {
        const value = row[column];
        out[column] = column === "time"
          ? parseTime(String(value))
          : COLUMN_TYPES[column] === "int8" && value !== null
          ? Number(value)
          : value;
      }
      if (query.raw) out.log = row.log;
      return out as unknown as RequestInfoRow;
    });
  }

  async deleteBefore(micros: number): Promise<number> {
    const result = await this.sql.unsafe(`DELETE FROM ${this.table} WHERE time < $1::timestamptz`, [
      formatMicros(micros),
    ]);
    return result.count;
  }

  async count(): Promise<number> {
    const [row] = await this.sql.unsafe(`SELECT count(*)::int8 AS n FROM ${this.table}`);
    return Number(row.n);
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
