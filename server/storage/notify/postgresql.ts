/**
 * PostgreSQL target (minio-protocol-2 §1.6) through the `postgres` client: the table is created for its
 * format when `SELECT 1 FROM <table>` fails; namespace keeps one row per object (upserted, deleted with it),
 * access appends one row per event. A batch is one transaction, so it arrives whole or not at all.
 */
import postgres from "postgres";
import { parseConnectionString, SQL_TABLE } from "./addresses.ts";
import {
  BATCH_LINGER_MS,
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  formatOf,
  planSteps,
  type RowParts,
  rowParts,
  type Step,
  type Target,
  type TargetConfig,
} from "./target.ts";

function clientOptions(config: TargetConfig) {
  const kv = parseConnectionString(config.connection_string ?? "");
  const ssl = kv.sslmode === "disable"
    ? false
    : kv.sslmode === "require"
    ? "require"
    : kv.sslmode?.startsWith("verify")
    ? "verify-full"
    : "prefer";
  return {
    host: kv.host ?? config.host ?? "localhost",
    port: Number(kv.port ?? config.port ?? 5432),
    user: kv.user ?? config.username ?? "postgres",
    password: kv.password ?? config.password,
    database: kv.dbname ?? config.database ?? "postgres",
    ssl: ssl as "require" | "prefer" | "verify-full" | false,
    max: Math.max(1, Number(config.max_open_connections) || 2),
    connect_timeout: 5,
    idle_timeout: 60,
    onnotice: () => {},
  };
}

export class PostgresTarget implements Target {
  readonly type = "postgresql" as const;
  readonly lingerMs = BATCH_LINGER_MS;
  readonly #sql: postgres.Sql;
  readonly #table: string;
  readonly #format;
  #ready: Promise<void> | null = null;

  constructor(readonly id: string, private readonly config: TargetConfig) {
    if (!SQL_TABLE.test(config.table ?? "")) throw new Error(`invalid table name '${config.table}'`);
    this.#table = config.table;
    this.#format = formatOf(config);
    this.#sql = postgres(clientOptions(config));
  }

  /** Creates the table for the format unless it exists (once per connection life). */
  #init(): Promise<void> {
    this.#ready ??= (async () => {
      try {
        await this.#sql.unsafe(`SELECT 1 FROM ${this.#table} LIMIT 0`);
      } catch {
        await this.#sql.unsafe(
          this.#format === "namespace"
            ? `CREATE TABLE IF NOT EXISTS ${this.#table} (key VARCHAR PRIMARY KEY, value JSONB)`
            : `CREATE TABLE IF NOT EXISTS ${this.#table} (event_time TIMESTAMP WITH TIME ZONE NOT NULL, event_data JSONB)`,
        );
      }
    })().catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /**
   * One statement for a run of events (see planSteps). The records go as the JSON text the line already
   * holds, cast to JSONB by the statement (via text: a JSONB parameter would be serialized again, into a JSON
   * string), so no event is parsed and serialized again here.
   */
  #statement(sql: postgres.Sql | postgres.TransactionSql, step: Step<RowParts>) {
    const t = this.#table;
    const rows = (casts: string[]) =>
      step.events.map((_, i) =>
        `(${casts.map((cast, j) => `$${i * casts.length + j + 1}${cast}`).join(", ")})`
      ).join(", ");
    if (step.kind === "append") {
      return sql.unsafe(
        `INSERT INTO ${t} (event_time, event_data) VALUES ${rows(["", "::text::jsonb"])}`,
        step.events.flatMap((e) => [e.eventTime, e.records]),
      );
    }
    if (step.kind === "delete") {
      return sql.unsafe(`DELETE FROM ${t} WHERE key = ANY($1)`, [step.events.map((e) => e.Key)]);
    }
    return sql.unsafe(
      `INSERT INTO ${t} (key, value) VALUES ${
        rows(["", "::text::jsonb"])
      } ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      step.events.flatMap((e) => [e.Key, e.records]),
    );
  }

  async send(batch: Delivery[]): Promise<void> {
    try {
      await this.#init();
      const steps = planSteps(batch.map(rowParts), this.#format);
      // One statement is atomic on its own; several go in one transaction, pipelined on its connection.
      if (steps.length === 1) await this.#statement(this.#sql, steps[0]);
      else await this.#sql.begin((tx) => Promise.all(steps.map((step) => this.#statement(tx, step))));
    } catch (error) {
      throw new DeliveryError(
        `postgresql: ${describe(error, [this.config.connection_string, this.config.password])}`,
        0,
      );
    }
  }

  isActive(): Promise<boolean> {
    return checkPasses(this.#sql`SELECT 1`);
  }

  async close(): Promise<void> {
    await this.#sql.end({ timeout: 2 });
  }
}
