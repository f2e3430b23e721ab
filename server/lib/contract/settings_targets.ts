/**
 * Settings › Lambda Notifications: the supported services (spec 2 §2) and each one's fields and defaults
 * (spec 2 §3, §9), keyed by the config subsystem suffix (`notify_<id>`). Labels, help texts and problems are
 * message keys of the settings catalogue (see FieldDef); the services' names are product names, shown as they
 * are.
 */
import {
  absolutePath,
  comment,
  durationCheck,
  ENTER_LABEL,
  type FieldDef,
  hostPortCheck,
  urlCheck,
} from "./settings_fields.ts";

const queueFields = (queueDirRequired: boolean): FieldDef[] => [
  {
    name: "queue_dir",
    label: "settings.target.queueDir.label",
    type: "string",
    required: queueDirRequired,
    tooltip: "settings.target.queueDir.help",
    placeholder: ENTER_LABEL,
    check: absolutePath,
  },
  {
    name: "queue_limit",
    label: "settings.target.queueLimit.label",
    type: "number",
    default: "10000",
    tooltip: "settings.target.queueLimit.help",
    placeholder: ENTER_LABEL,
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
): FieldDef => ({ name, label, type: "string", required, tooltip, placeholder: ENTER_LABEL, check });
const secret = (name: string, label: string, tooltip = ""): FieldDef => ({
  name,
  label,
  type: "password",
  tooltip,
  placeholder: ENTER_LABEL,
});
const format: FieldDef = {
  name: "format",
  label: "settings.target.format.label",
  type: "radio",
  required: true,
  default: "namespace",
  tooltip: "settings.target.format.help",
  options: [
    { value: "namespace", label: "settings.target.format.namespace" },
    { value: "access", label: "settings.target.format.access" },
  ],
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
        label: "settings.target.postgres.connectionString.label",
        type: "string",
        required: true,
        tooltip: "settings.target.postgres.connectionString.help",
        example: "host=localhost port=5432 dbname=events user=postgres password=… sslmode=disable",
        check: (
          v,
        ) => (/\b(host|dbname|user)\s*=/.test(v) ? "" : "settings.validation.connectionString"),
      },
      text(
        "table",
        "settings.target.table.label",
        true,
        "settings.target.table.help",
        (v) => (/^(?:[A-Za-z_][A-Za-z0-9_$]*|"[^"]+")$/.test(v) ? "" : "settings.validation.sqlTable"),
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
        "settings.target.brokers.label",
        true,
        "settings.target.brokers.help",
        (
          v,
        ) => (v.split(",").every((b) => !hostPortCheck(b.trim())) ? "" : "settings.validation.brokers"),
      ),
      text("topic", "settings.target.topic.label", false, "settings.target.kafka.topic.help"),
      text("sasl_username", "settings.target.saslUsername.label", false, "settings.target.saslUsername.help"),
      secret("sasl_password", "settings.target.saslPassword.label", "settings.target.saslPassword.help"),
      text(
        "sasl_mechanism",
        "settings.target.saslMechanism.label",
        false,
        "settings.target.saslMechanism.help",
      ),
      text(
        "tls_client_auth",
        "settings.target.tlsClientAuth.label",
        false,
        "settings.target.tlsClientAuth.help",
      ),
      onOff("sasl", "settings.target.sasl.label", "settings.target.sasl.help"),
      onOff("tls", "settings.target.tls.label", "settings.target.tls.help"),
      onOff(
        "tls_skip_verify",
        "settings.target.kafka.tlsSkipVerify.label",
        "settings.target.tlsSkipVerify.help",
      ),
      text(
        "client_tls_cert",
        "settings.target.clientTlsCert.label",
        false,
        "settings.target.clientTlsCert.help",
      ),
      text(
        "client_tls_key",
        "settings.target.clientTlsKey.label",
        false,
        "settings.target.clientTlsKey.help",
      ),
      text("version", "settings.target.version.label", false, "settings.target.version.help"),
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
        "settings.target.url.label",
        true,
        "settings.target.amqp.url.help",
        urlCheck(["amqp:", "amqps:"], "settings.validation.urlAmqp"),
      ),
      text("exchange", "settings.target.exchange.label", false, "settings.target.exchange.help"),
      {
        name: "exchange_type",
        label: "settings.target.amqp.exchangeType.label",
        type: "select",
        tooltip: "settings.target.amqp.exchangeType.help",
        options: [
          { value: "", label: "settings.target.notSet" },
          ...["direct", "fanout", "topic", "headers"].map((t) => ({ value: t })),
        ],
      },
      text("routing_key", "settings.target.routingKey.label", false, "settings.target.routingKey.help"),
      onOff("mandatory", "settings.target.mandatory.label", "settings.target.mandatory.help"),
      onOff("durable", "settings.target.durable.label", "settings.target.durable.help"),
      onOff("no_wait", "settings.target.noWait.label", "settings.target.noWait.help"),
      onOff(
        "internal",
        "settings.target.internal.label",
        "settings.target.internal.help",
      ),
      onOff(
        "auto_deleted",
        "settings.target.autoDeleted.label",
        "settings.target.autoDeleted.help",
      ),
      {
        name: "delivery_mode",
        label: "settings.target.amqp.deliveryMode.label",
        type: "select",
        default: "1",
        tooltip: "settings.target.amqp.deliveryMode.help",
        options: [
          { value: "1", label: "settings.target.amqp.deliveryMode.nonPersistent" },
          { value: "2", label: "settings.target.amqp.deliveryMode.persistent" },
        ],
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
        "settings.target.broker.label",
        true,
        "settings.target.broker.help",
        urlCheck(["tcp:", "ssl:", "tls:", "ws:", "wss:", "mqtt:", "mqtts:"], "settings.validation.urlMqtt"),
      ),
      text("topic", "settings.target.topic.label", true, "settings.target.mqtt.topic.help"),
      text("username", "settings.target.username.label", false, "settings.target.mqtt.username.help"),
      secret("password", "settings.target.password.label", "settings.target.mqtt.password.help"),
      {
        name: "qos",
        label: "settings.target.mqtt.qos.label",
        type: "number",
        default: "0",
        tooltip: "settings.target.mqtt.qos.help",
        check: (v) => (["0", "1", "2"].includes(v) ? "" : "settings.validation.qos"),
      },
      {
        name: "keep_alive_interval",
        label: "settings.target.mqtt.keepAliveInterval.label",
        type: "duration",
        tooltip: "settings.target.mqtt.keepAliveInterval.help",
        check: durationCheck,
      },
      {
        name: "reconnect_interval",
        label: "settings.target.mqtt.reconnectInterval.label",
        type: "duration",
        tooltip: "settings.target.mqtt.reconnectInterval.help",
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
        "settings.target.address.label",
        true,
        "settings.target.redis.address.help",
        hostPortCheck,
      ),
      text("key", "settings.target.key.label", true, "settings.target.key.help"),
      secret("password", "settings.target.password.label", "settings.target.redis.password.help"),
      ...queueFields(true),
    ],
  },
  {
    id: "nats",
    label: "NATS",
    arnType: "nats",
    fields: [
      text(
        "address",
        "settings.target.address.label",
        true,
        "settings.target.nats.address.help",
        hostPortCheck,
      ),
      text("subject", "settings.target.subject.label", true, "settings.target.subject.help"),
      text("username", "settings.target.username.label", false, "settings.target.nats.username.help"),
      secret("password", "settings.target.password.label", "settings.target.nats.password.help"),
      secret("token", "settings.target.token.label", "settings.target.token.help"),
      onOff("tls", "settings.target.tls.label", "settings.target.tls.help"),
      onOff(
        "tls_skip_verify",
        "settings.target.nats.tlsSkipVerify.label",
        "settings.target.tlsSkipVerify.help",
      ),
      {
        name: "ping_interval",
        label: "settings.target.nats.pingInterval.label",
        type: "duration",
        tooltip: "settings.target.nats.pingInterval.help",
        check: durationCheck,
      },
      onOff("streaming", "settings.target.streaming.label", "settings.target.streaming.help"),
      onOff("streaming_async", "settings.target.streamingAsync.label", "settings.target.streamingAsync.help"),
      {
        name: "streaming_max_pub_acks_in_flight",
        label: "settings.target.nats.streamingMaxPubAcksInFlight.label",
        type: "number",
        tooltip: "settings.target.nats.streamingMaxPubAcksInFlight.help",
      },
      text(
        "streaming_cluster_id",
        "settings.target.streamingClusterId.label",
        false,
        "settings.target.streamingClusterId.help",
      ),
      text(
        "cert_authority",
        "settings.target.certAuthority.label",
        false,
        "settings.target.certAuthority.help",
      ),
      text("client_cert", "settings.target.clientCert.label", false, "settings.target.clientCert.help"),
      text("client_key", "settings.target.clientKey.label", false, "settings.target.clientKey.help"),
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
        label: "settings.target.mysql.dsnString.label",
        type: "string",
        required: true,
        tooltip: "settings.target.mysql.dsnString.help",
        example: "<user>:<password>@tcp(<host>:<port>)/<database>",
        check: (
          v,
        ) => (/^(?:.*@)?(?:tcp)?\([^)]*\)\/[^/?]+(?:\?.*)?$/.test(v) ? "" : "settings.validation.dsn"),
      },
      text(
        "table",
        "settings.target.table.label",
        true,
        "settings.target.table.help",
        (v) => (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(v) ? "" : "settings.validation.sqlTable"),
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
        "settings.target.url.label",
        true,
        "settings.target.elasticsearch.url.help",
        urlCheck(),
      ),
      text("index", "settings.target.index.label", true, "settings.target.index.help"),
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
        "settings.target.endpoint.label",
        true,
        "settings.target.endpoint.help",
        urlCheck(),
      ),
      secret("auth_token", "settings.target.authToken.label", "settings.target.authToken.help"),
      ...queueFields(true),
    ],
  },
  {
    id: "nsq",
    label: "NSQ",
    arnType: "nsq",
    fields: [
      text(
        "nsqd_address",
        "settings.target.nsqdAddress.label",
        true,
        "settings.target.nsqdAddress.help",
        hostPortCheck,
      ),
      text("topic", "settings.target.topic.label", true, "settings.target.nsq.topic.help"),
      onOff("tls", "settings.target.tls.label", "settings.target.tls.help"),
      onOff(
        "tls_skip_verify",
        "settings.target.nsq.tlsSkipVerify.label",
        "settings.target.tlsSkipVerify.help",
      ),
      ...queueFields(true),
    ],
  },
];

export const notificationServiceDef = (id: string) => NOTIFICATION_SERVICES.find((s) => s.id === id);
