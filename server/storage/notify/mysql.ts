/**
 * MySQL / MariaDB target (minio-protocol-2 §1.6) through `mysql2`: the DSN is Go's `user:pass@tcp(host:port)/db`;
 * the table is created for its format when `SELECT 1 FROM <table>` fails. Namespace rows are keyed by the
 * SHA-256 of `<bucket>/<object>` as current MinIO keys them (MariaDB, which refuses NOT NULL on a generated
 * column, gets the same columns with a unique key). A batch is one transaction.
 */
import mysql from "mysql2/promise";
import { MYSQL_TABLE, parseDsn } from "./addresses.ts";
import {
  BATCH_LINGER_MS,
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  formatOf,
  planSteps,
  recordsDocument,
  type Step,
  type Target,
  type TargetConfig,
} from "./target.ts";

export class MysqlTarget implements Target {
  readonly type = "mysql" as const;
  readonly lingerMs = BATCH_LINGER_MS;
  readonly #pool: mysql.Pool;
  readonly #table: string;
  readonly #format;
  readonly #secrets: string[];
  #ready: Promise<void> | null = null;

  constructor(readonly id: string, config: TargetConfig) {
    const dsn = parseDsn(config.dsn_string ?? "") ??
      {
        user: config.username ?? "",
        password: config.password ?? "",
        host: config.host ?? "127.0.0.1",
        port: Number(config.port ?? 3306),
        database: config.database ?? "",
      };
    if (!MYSQL_TABLE.test(config.table ?? "")) throw new Error(`invalid table name '${config.table}'`);
    this.#table = config.table;
    this.#format = formatOf(config);
    this.#secrets = [dsn.password, config.dsn_string];
    this.#pool = mysql.createPool({
      ...dsn,
      connectionLimit: Math.max(1, Number(config.max_open_connections) || 2),
      connectTimeout: 5000,
      timezone: "Z",
      maxIdle: 1,
      idleTimeout: 60_000,
    });
    // A pool emits errors of idle connections; without a listener they would end the process.
    (this.#pool as unknown as { on(e: string, f: () => void): void }).on("error", () => {});
  }

  #init(): Promise<void> {
    this.#ready ??= (async () => {
      try {
        await this.#pool.query(`SELECT 1 FROM ${this.#table} LIMIT 0`);
      } catch {
        if (this.#format === "access") {
          await this.#pool.query(
            `CREATE TABLE IF NOT EXISTS ${this.#table} (event_time DATETIME NOT NULL, event_data JSON) ROW_FORMAT = Dynamic`,
          );
          return;
        }
        const tail = "CHARACTER SET = utf8mb4 COLLATE = utf8mb4_bin ROW_FORMAT = Dynamic";
        try {
          await this.#pool.query(
            `CREATE TABLE IF NOT EXISTS ${this.#table} (key_name VARCHAR(3072) NOT NULL, key_hash CHAR(64) GENERATED ALWAYS AS (SHA2(key_name, 256)) STORED NOT NULL PRIMARY KEY, value JSON) ${tail}`,
          );
        } catch (error) {
          if ((error as { code?: string }).code !== "ER_PARSE_ERROR") throw error;
          await this.#pool.query(
            `CREATE TABLE IF NOT EXISTS ${this.#table} (key_name VARCHAR(3072) NOT NULL, key_hash CHAR(64) AS (SHA2(key_name, 256)) PERSISTENT, value JSON, UNIQUE KEY (key_hash)) ${tail}`,
          );
        }
      }
    })().catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /** One statement for a run of events (see planSteps); plain queries, as their shapes vary with the run. */
  #statement(conn: mysql.PoolConnection, step: Step) {
    const t = this.#table;
    const rows = step.events.map(() => "(?, ?)").join(", ");
    if (step.kind === "append") {
      return conn.query(
        `INSERT INTO ${t} (event_time, event_data) VALUES ${rows}`,
        step.events.flatMap((e) => [new Date(e.Records[0].eventTime), recordsDocument(e)]),
      );
    }
    if (step.kind === "delete") {
      return conn.query(
        `DELETE FROM ${t} WHERE key_hash IN (${step.events.map(() => "SHA2(?, 256)").join(", ")})`,
        step.events.map((e) => e.Key),
      );
    }
    return conn.query(
      `INSERT INTO ${t} (key_name, value) VALUES ${rows} ON DUPLICATE KEY UPDATE value=VALUES(value)`,
      step.events.flatMap((e) => [e.Key, recordsDocument(e)]),
    );
  }

  async send(batch: Delivery[]): Promise<void> {
    let conn: mysql.PoolConnection | undefined;
    try {
      await this.#init();
      conn = await this.#pool.getConnection();
      const steps = planSteps(batch.map((d) => d.event), this.#format);
      // One statement is atomic on its own; several go in one transaction, queued in order on the connection.
      if (steps.length > 1) await conn.beginTransaction();
      await Promise.all(steps.map((step) => this.#statement(conn!, step)));
      if (steps.length > 1) await conn.commit();
    } catch (error) {
      await conn?.rollback().catch(() => {});
      throw new DeliveryError(`mysql: ${describe(error, this.#secrets)}`, 0);
    } finally {
      conn?.release();
    }
  }

  isActive(): Promise<boolean> {
    return checkPasses(this.#pool.query("SELECT 1"));
  }

  async close(): Promise<void> {
    await this.#pool.end().catch(() => {});
  }
}
