/**
 * Settings › Lambda Notifications: the supported services (spec 2 §2) and each one's fields and defaults
 * (spec 2 §3, §9), keyed by the config subsystem suffix (`notify_<id>`).
 */
import {
  absolutePath,
  comment,
  durationCheck,
  type FieldDef,
  hostPortCheck,
  urlCheck,
} from "./settings_fields.ts";

const queueFields = (queueDirRequired: boolean): FieldDef[] => [
  {
    name: "queue_dir",
    label: "Queue Dir",
    type: "string",
    required: queueDirRequired,
    tooltip: "Staging dir for undelivered messages e.g. '/home/events'",
    placeholder: "Enter Queue Dir",
    check: absolutePath,
  },
  {
    name: "queue_limit",
    label: "Queue Limit",
    type: "number",
    default: "10000",
    tooltip: "Maximum limit for undelivered messages, defaults to '10000'",
    placeholder: "Enter Queue Limit",
  },
  comment,
];
const onOff = (name: string, label: string, tooltip = ""): FieldDef => ({
  name,
  label,
  type: "on|off",
  tooltip,
});
const text = (
  name: string,
  label: string,
  required = false,
  tooltip = "",
  check?: (v: string) => string,
): FieldDef => ({ name, label, type: "string", required, tooltip, placeholder: `Enter ${label}`, check });
const secret = (name: string, label: string, tooltip = ""): FieldDef => ({
  name,
  label,
  type: "password",
  tooltip,
  placeholder: `Enter ${label}`,
});
const format: FieldDef = {
  name: "format",
  label: "Format",
  type: "radio",
  required: true,
  default: "namespace",
  tooltip:
    "'namespace' reflects current bucket/object list and 'access' reflects a journal of object operations",
  options: [{ value: "namespace", label: "Namespace" }, { value: "access", label: "Access" }],
};

export interface NotificationServiceDef {
  /** The route segment and the config subsystem suffix: notify_<id>. */
  id: string;
  /** Name shown in the service picker and the form title. */
  label: string;
  /** Service name in notification endpoint lists (ARN type). */
  arnType: string;
  fields: FieldDef[];
}

export const NOTIFICATION_SERVICES: NotificationServiceDef[] = [
  {
    id: "postgres",
    label: "Postgres SQL",
    arnType: "postgresql",
    fields: [
      {
        name: "connection_string",
        label: "Connection String",
        type: "string",
        required: true,
        tooltip: "Connection string to the database, built from the fields below or entered directly",
        placeholder: "host=localhost port=5432 dbname=events user=postgres password=… sslmode=disable",
        check: (
          v,
        ) => (/\b(host|dbname|user)\s*=/.test(v)
          ? ""
          : "Please enter a connection string such as host=… port=… dbname=… user=…"),
      },
      text(
        "table",
        "Table",
        true,
        "DB table name to store/update events, table is auto-created",
        (v) => (/^(?:[A-Za-z_][A-Za-z0-9_$]*|"[^"]+")$/.test(v) ? "" : "Please enter a valid SQL table name"),
      ),
      format,
      ...queueFields(false),
    ],
  },
  {
    id: "kafka",
    label: "Kafka",
    arnType: "kafka",
    fields: [
      text(
        "brokers",
        "Brokers",
        true,
        "Comma separated list of Kafka broker addresses",
        (
          v,
        ) => (v.split(",").every((b) => !hostPortCheck(b.trim()))
          ? ""
          : "Please enter brokers as host:port, separated by commas"),
      ),
      text("topic", "Topic", false, "Kafka topic used for bucket notifications"),
      text("sasl_username", "SASL Username", false, "Username for SASL/PLAIN or SASL/SCRAM authentication"),
      secret("sasl_password", "SASL Password", "Password for SASL/PLAIN or SASL/SCRAM authentication"),
      text("sasl_mechanism", "SASL Mechanism", false, "SASL authentication mechanism, default 'plain'"),
      text(
        "tls_client_auth",
        "TLS Client Auth",
        false,
        "ClientAuth determines the Kafka server's policy for TLS client auth",
      ),
      onOff("sasl", "SASL", "Set to 'on' to enable SASL authentication"),
      onOff("tls", "TLS", "Set to 'on' to enable TLS"),
      onOff(
        "tls_skip_verify",
        "TLS skip verify",
        'Trust server TLS without verification, defaults to "on" (verify)',
      ),
      text("client_tls_cert", "client TLS cert", false, "Path to client certificate for mTLS auth"),
      text("client_tls_key", "client TLS key", false, "Path to client key for mTLS auth"),
      text("version", "Version", false, "Specify the version of the Kafka cluster e.g '2.2.0'"),
      ...queueFields(true),
    ],
  },
  {
    id: "amqp",
    label: "AMQP",
    arnType: "amqp",
    fields: [
      text(
        "url",
        "URL",
        true,
        "AMQP server endpoint, e.g. `amqp://myuser:mypassword@localhost:5672`",
        urlCheck(["amqp:", "amqps:"]),
      ),
      text("exchange", "Exchange", false, "Name of the AMQP exchange"),
      {
        name: "exchange_type",
        label: "Exchange Type",
        type: "select",
        tooltip: "Kind of AMQP exchange type",
        options: [
          { value: "", label: "Not set" },
          ...["direct", "fanout", "topic", "headers"].map((t) => ({ value: t, label: t })),
        ],
      },
      text("routing_key", "Routing Key", false, "Routing key for publishing"),
      onOff("mandatory", "Mandatory", "Set to 'on' for the broker to return messages it cannot route"),
      onOff("durable", "Durable", "Persist queue across broker restarts when set to 'on', default is 'off'"),
      onOff("no_wait", "No Wait", "Non-blocking message delivery when set to 'on', default is 'off'"),
      onOff(
        "internal",
        "Internal",
        "Set to 'on' for exchange to be not used directly by publishers, but only when bound to other exchanges",
      ),
      onOff(
        "auto_deleted",
        "Auto Deleted",
        "Auto delete queue when set to 'on', when there are no consumers",
      ),
      {
        name: "delivery_mode",
        label: "Delivery Mode",
        type: "select",
        default: "1",
        tooltip: "Set to '1' for non-persistent or '2' for persistent queue",
        options: [{ value: "1", label: "1 - Non-persistent" }, { value: "2", label: "2 - Persistent" }],
      },
      ...queueFields(true),
    ],
  },
  {
    id: "mqtt",
    label: "MQTT",
    arnType: "mqtt",
    fields: [
      text(
        "broker",
        "Broker",
        true,
        "MQTT server endpoint, e.g. `tcp://localhost:1883`",
        urlCheck(["tcp:", "ssl:", "tls:", "ws:", "wss:", "mqtt:", "mqtts:"]),
      ),
      text("topic", "Topic", true, "Name of the MQTT topic to publish on, e.g. `minio`"),
      text("username", "Username", false, "MQTT username"),
      secret("password", "Password", "MQTT password"),
      {
        name: "qos",
        label: "QOS",
        type: "number",
        default: "0",
        tooltip: "Set the quality of service priority, defaults to '0'",
        check: (v) => (["0", "1", "2"].includes(v) ? "" : "QoS must be 0, 1 or 2"),
      },
      {
        name: "keep_alive_interval",
        label: "Keep Alive Interval",
        type: "duration",
        tooltip: "Keep-alive interval for MQTT connections in s,m,h,d",
        check: durationCheck,
      },
      {
        name: "reconnect_interval",
        label: "Reconnect Interval",
        type: "duration",
        tooltip: "Reconnect interval for MQTT connections in s,m,h,d",
        check: durationCheck,
      },
      ...queueFields(true),
    ],
  },
  {
    id: "redis",
    label: "Redis",
    arnType: "redis",
    fields: [
      text(
        "address",
        "Address",
        true,
        "Redis server's address. For example: `localhost:6379`",
        hostPortCheck,
      ),
      text("key", "Key", true, "Redis key to store/update events, key is auto-created"),
      secret("password", "Password", "Redis server password"),
      ...queueFields(true),
    ],
  },
  {
    id: "nats",
    label: "NATS",
    arnType: "nats",
    fields: [
      text("address", "Address", true, "NATS server address e.g. '0.0.0.0:4222'", hostPortCheck),
      text("subject", "Subject", true, "NATS subscription subject"),
      text("username", "Username", false, "NATS username"),
      secret("password", "Password", "NATS password"),
      secret("token", "Token", "NATS token"),
      onOff("tls", "TLS", "Set to 'on' to enable TLS"),
      onOff(
        "tls_skip_verify",
        "TLS Skip Verify",
        'Trust server TLS without verification, defaults to "on" (verify)',
      ),
      {
        name: "ping_interval",
        label: "Ping Interval",
        type: "duration",
        tooltip: "Client ping commands interval in s,m,h,d. Disabled by default",
        check: durationCheck,
      },
      onOff("streaming", "Streaming", "Set to 'on', to use streaming NATS server"),
      onOff("streaming_async", "Streaming Async", "Set to 'on', to enable asynchronous publish"),
      {
        name: "streaming_max_pub_acks_in_flight",
        label: "Streaming Max Publish ACKS In Flight",
        type: "number",
        tooltip: "Number of messages to publish without waiting for ACKs",
      },
      text("streaming_cluster_id", "Streaming Cluster ID", false, "Unique ID for NATS streaming cluster"),
      text("cert_authority", "Cert Authority", false, "Path to certificate chain of the target NATS server"),
      text("client_cert", "Client Cert", false, "Client cert for NATS mTLS auth"),
      text("client_key", "Client Key", false, "Client cert key for NATS mTLS auth"),
      ...queueFields(true),
    ],
  },
  {
    id: "mysql",
    label: "Mysql",
    arnType: "mysql",
    fields: [
      {
        name: "dsn_string",
        label: "DSN String",
        type: "string",
        required: true,
        tooltip: "Data source name, built from the fields below or entered directly",
        placeholder: "<user>:<password>@tcp(<host>:<port>)/<database>",
        check: (
          v,
        ) => (/^(?:.*@)?(?:tcp)?\([^)]*\)\/[^/?]+(?:\?.*)?$/.test(v)
          ? ""
          : "Please enter a DSN such as user:password@tcp(host:3306)/database"),
      },
      text(
        "table",
        "Table",
        true,
        "DB table name to store/update events, table is auto-created",
        (v) => (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(v) ? "" : "Please enter a valid SQL table name"),
      ),
      format,
      ...queueFields(false),
    ],
  },
  {
    id: "elasticsearch",
    label: "Elastic Search",
    arnType: "elasticsearch",
    fields: [
      text(
        "url",
        "URL",
        true,
        "Elasticsearch server's address, with optional authentication info",
        urlCheck(),
      ),
      text("index", "Index", true, "Elasticsearch index to store/update events, index is auto-created"),
      format,
      ...queueFields(true),
    ],
  },
  {
    id: "webhook",
    label: "Webhook",
    arnType: "webhook",
    fields: [
      text(
        "endpoint",
        "Endpoint",
        true,
        "Webhook server endpoint e.g. http://localhost:8080/minio/events",
        urlCheck(),
      ),
      secret("auth_token", "Auth Token", "Opaque string or JWT authorization token"),
      ...queueFields(true),
    ],
  },
  {
    id: "nsq",
    label: "NSQ",
    arnType: "nsq",
    fields: [
      text("nsqd_address", "NSQD Address", true, "NSQ server address e.g. '127.0.0.1:4150'", hostPortCheck),
      text("topic", "Topic", true, "NSQ topic"),
      onOff("tls", "TLS", "Set to 'on' to enable TLS"),
      onOff(
        "tls_skip_verify",
        "TLS Skip Verify",
        'Trust server TLS without verification, defaults to "on" (verify)',
      ),
      ...queueFields(true),
    ],
  },
];

export const notificationServiceDef = (id: string) => NOTIFICATION_SERVICES.find((s) => s.id === id);
