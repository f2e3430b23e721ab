/**
 * The target kinds by config subsystem: how each is built, and the checks its configuration must pass
 * before the server stores it (so a target that cannot work is refused when it is set, not at the next
 * restart). Reachability is not required: an unreachable target is stored and reported Offline.
 */
import { brokerUrl, MYSQL_TABLE, parseDsn, SQL_TABLE } from "./addresses.ts";
import { hostPort, isOn, type Target, type TargetConfig, type TargetType } from "./target.ts";
import { UnsupportedTarget } from "./unsupported.ts";

/** notify_<x> → ARN type (postgres is "postgresql" in ARNs, minio-protocol §3.9). */
export const TARGET_TYPES: Record<string, TargetType> = {
  notify_webhook: "webhook",
  notify_postgres: "postgresql",
  notify_mysql: "mysql",
  notify_redis: "redis",
  notify_amqp: "amqp",
  notify_mqtt: "mqtt",
  notify_nats: "nats",
  notify_kafka: "kafka",
  notify_elasticsearch: "elasticsearch",
  notify_nsq: "nsq",
};

/** The server's queue limit when `queue_limit` is 0 or unset. */
export const DEFAULT_QUEUE_LIMIT = 10_000;

/**
 * Builds a running target. Each kind's module (and its client library) is loaded the first time a target of
 * that kind runs, so a server without targets loads none of them. HTTPS targets (webhooks) trust `caCerts`
 * besides the system's; brokers and databases keep their own TLS settings.
 */
export async function createTarget(
  subsystem: string,
  id: string,
  config: TargetConfig,
  caCerts: string[] = [],
): Promise<Target> {
  switch (TARGET_TYPES[subsystem]) {
    case "webhook":
      return new (await import("./webhook.ts")).WebhookTarget(id, config, caCerts);
    case "postgresql":
      return new (await import("./postgresql.ts")).PostgresTarget(id, config);
    case "mysql":
      return new (await import("./mysql.ts")).MysqlTarget(id, config);
    case "redis":
      return new (await import("./redis.ts")).RedisTarget(id, config);
    case "amqp":
      return new (await import("./amqp.ts")).AmqpTarget(id, config);
    case "mqtt":
      return new (await import("./mqtt.ts")).MqttTarget(id, config);
    case "nats":
      return new (await import("./nats.ts")).NatsTarget(id, config);
    case "kafka":
    case "elasticsearch":
    case "nsq":
      return new UnsupportedTarget(TARGET_TYPES[subsystem], id);
  }
  throw new Error(`unknown notification subsystem ${subsystem}`);
}

const check = (ok: boolean, message: string) => {
  if (!ok) throw new Error(message);
};

function isUrl(text: string | undefined, schemes: string[]): boolean {
  try {
    return schemes.includes(new URL(text ?? "").protocol);
  } catch {
    return false;
  }
}

function isHostPort(text: string | undefined): boolean {
  try {
    hostPort(text ?? "");
    return true;
  } catch {
    return false;
  }
}

/** Throws an Error whose message says what is wrong with an enabled target's values. */
export function validateTargetConfig(subsystem: string, config: TargetConfig): void {
  const format = config.format;
  check(!format || format === "namespace" || format === "access", "format must be 'namespace' or 'access'");
  if (config.queue_dir) check(config.queue_dir.startsWith("/"), "queue_dir path should be absolute");
  if (config.queue_limit) check(/^\d+$/.test(config.queue_limit), "queue_limit must be a number");
  switch (TARGET_TYPES[subsystem]) {
    case "webhook":
      check(isUrl(config.endpoint, ["http:", "https:"]), "endpoint must be an http:// or https:// URL");
      check(!config.client_cert === !config.client_key, "client_cert and client_key must be given together");
      return;
    case "postgresql":
      check(SQL_TABLE.test(config.table ?? ""), "table must be a valid SQL identifier");
      check(
        /\b(host|dbname|user)\s*=/.test(config.connection_string ?? "") || !!config.host,
        "connection_string must be of the form 'host=… port=… user=… password=… dbname=… sslmode=…'",
      );
      return;
    case "mysql":
      check(MYSQL_TABLE.test(config.table ?? ""), "table must be a valid SQL identifier");
      check(
        !!parseDsn(config.dsn_string ?? "") || !!config.host,
        "dsn_string must be of the form '<user>:<password>@tcp(<host>:<port>)/<database>'",
      );
      return;
    case "redis":
      check(isHostPort(config.address), "address must be host:port");
      check(!!config.key, "key is required");
      return;
    case "amqp":
      check(isUrl(config.url, ["amqp:", "amqps:"]), "url must be an amqp:// or amqps:// URL");
      check(
        !config.delivery_mode || ["0", "1", "2"].includes(config.delivery_mode),
        "delivery_mode must be 1 (non-persistent) or 2 (persistent)",
      );
      check(
        !config.exchange_type || ["direct", "fanout", "topic", "headers"].includes(config.exchange_type),
        "exchange_type must be direct, fanout, topic or headers",
      );
      return;
    case "mqtt":
      try {
        brokerUrl(config.broker ?? "");
      } catch {
        throw new Error("broker must be a URI such as tcp://host:1883");
      }
      check(!config.qos || ["0", "1", "2"].includes(config.qos), "qos must be 0, 1 or 2");
      return;
    case "nats":
      check(isHostPort(config.address), "address must be host:port");
      check(!isOn(config.streaming), "NATS Streaming is not supported by this server: set streaming=off");
      return;
    case "kafka":
      check(
        (config.brokers ?? "").split(",").every(isHostPort),
        "brokers must be a comma-separated list of host:port",
      );
      return;
    case "elasticsearch":
      check(isUrl(config.url, ["http:", "https:"]), "url must be an http:// or https:// URL");
      return;
    case "nsq":
      check(isHostPort(config.nsqd_address), "nsqd_address must be host:port");
      return;
  }
}
