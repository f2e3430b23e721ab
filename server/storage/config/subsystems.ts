/**
 * The configuration subsystems the embedded server understands, with their keys as MinIO names them
 * (minio-protocol §3.8) and which are required (spec 2 §3 configuration and notification target fields).
 */

export interface KeyDef {
  key: string;
  description: string;
  optional: boolean;
  type: "string" | "url" | "number" | "on|off" | "csv" | "path" | "duration" | "sentence";
  /** Secret values are never shown again (get-config-kv replies with the value, as MinIO does to admins). */
  secret?: boolean;
}

export interface SubsystemDef {
  name: string;
  description: string;
  multipleTargets: boolean;
  keys: KeyDef[];
}

const k = (
  key: string,
  description: string,
  type: KeyDef["type"] = "string",
  optional = true,
  secret = false,
): KeyDef => ({ key, description, optional, type, secret });
const req = (key: string, description: string, type: KeyDef["type"] = "string", secret = false) =>
  k(key, description, type, false, secret);
const comment = k("comment", "optionally add a comment to this setting", "sentence");
const queue = [
  k("queue_dir", "staging dir for undelivered messages e.g. '/home/events'", "path"),
  k("queue_limit", "maximum limit for undelivered messages, defaults to '100000'", "number"),
];
const enable = k("enable", "enable or disable this target", "on|off");

export const SUBSYSTEMS: SubsystemDef[] = [
  {
    name: "region",
    description: "label the location of the server",
    multipleTargets: false,
    keys: [req("name", 'name of the location of the server e.g. "us-west-rack2"'), comment],
  },
  {
    name: "api",
    description: "manage global HTTP API call specific features",
    multipleTargets: false,
    keys: [
      k(
        "cors_allow_origin",
        'set comma separated list of origins allowed for CORS requests e.g. "https://example1.com,https://example2.com"',
        "csv",
      ),
      comment,
    ],
  },
  {
    name: "cache",
    description: "add caching storage tier",
    multipleTargets: false,
    keys: [
      req("drives", 'comma separated mountpoints e.g. "/optane1,/optane2"', "csv"),
      k("expiry", 'cache expiry duration in days e.g. "90"', "number"),
      k("quota", 'limit cache drive usage in percentage e.g. "90"', "number"),
      k("exclude", 'exclude cache for following patterns e.g. "bucket/*.tmp,*.exe"', "csv"),
      k("after", "minimum number of access before caching an object", "number"),
      k("watermark_low", "% of cache use at which to stop cache eviction", "number"),
      k("watermark_high", "% of cache use at which to start cache eviction", "number"),
      comment,
    ],
  },
  {
    name: "compression",
    description: "enable server side compression of objects",
    multipleTargets: false,
    keys: [
      enable,
      k("extensions", 'comma separated file extensions e.g. ".txt,.log,.csv"', "csv"),
      k("mime_types", 'comma separated wildcard mime-types e.g. "text/*,application/json"', "csv"),
    ],
  },
  {
    name: "etcd",
    description: "federate multiple clusters for IAM and Bucket DNS",
    multipleTargets: false,
    keys: [
      req("endpoints", 'comma separated list of etcd endpoints e.g. "http://localhost:2379"', "csv"),
      k("path_prefix", 'namespace prefix to isolate tenants e.g. "customer1/"', "path"),
      k("coredns_path", 'shared bucket DNS records, default is "/skydns"', "path"),
      k("client_cert", "client cert for mTLS authentication", "path"),
      k("client_cert_key", "client cert key for mTLS authentication", "path"),
      comment,
    ],
  },
  {
    name: "identity_openid",
    description: "enable OpenID SSO support",
    multipleTargets: false,
    keys: [
      k(
        "config_url",
        'openid discovery document e.g. "https://accounts.google.com/.well-known/openid-configuration"',
        "url",
      ),
      k("client_id", 'unique public identifier for apps e.g. "292085223830.apps.googleusercontent.com"'),
      k("client_secret", "secret for the unique public identifier for apps", "string", true, true),
      k("claim_name", 'JWT canned policy claim name, defaults to "policy"'),
      k("claim_prefix", 'JWT claim namespace prefix e.g. "customer1/"'),
      k(
        "scopes",
        "comma separated list of OpenID scopes for server, defaults to advertised scopes from discovery document",
        "csv",
      ),
      k("redirect_uri", "configure custom redirect_uri for OpenID login flow callback", "url"),
      comment,
    ],
  },
  {
    name: "identity_ldap",
    description: "enable LDAP SSO support",
    multipleTargets: false,
    keys: [
      req("server_addr", 'AD/LDAP server address e.g. "myldapserver.com:636"'),
      k(
        "username_format",
        '";" separated list of username bind DNs e.g. "uid=%s,cn=accounts,dc=myldapserver,dc=com"',
        "csv",
      ),
      k(
        "username_search_filter",
        'user search filter, for example "(cn=%s)" or "(sAMAccountName=%s)" or "(uid=%s)"',
      ),
      k(
        "group_search_filter",
        'search filter for groups e.g. "(&(objectclass=groupOfNames)(memberUid=%s))"',
      ),
      k(
        "username_search_base_dn",
        '";" separated list of user search base DNs e.g. "dc=myldapserver,dc=com"',
        "csv",
      ),
      k(
        "group_search_base_dn",
        '";" separated list of group search base DNs e.g. "dc=myldapserver,dc=com"',
        "csv",
      ),
      k(
        "user_dn_search_base_dn",
        '";" separated list of user search base DNs e.g. "dc=myldapserver,dc=com"',
        "csv",
      ),
      k(
        "user_dn_search_filter",
        'Search filter to lookup user DN, e.g. "(uid=%s)" or "(sAMAccountName=%s)"',
      ),
      k("group_name_attribute", 'search attribute for group name e.g. "cn"'),
      k("sts_expiry", 'temporary credentials validity duration in s,m,h,d. Default is "1h"', "duration"),
      k("tls_skip_verify", 'trust server TLS without verification, defaults to "off" (verify)', "on|off"),
      k("server_insecure", 'allow plain text connection to AD/LDAP server, defaults to "off"', "on|off"),
      k("server_starttls", 'use StartTLS connection to AD/LDAP server, defaults to "off"', "on|off"),
      k("lookup_bind_dn", "DN for LDAP read-only service account used to perform DN and group lookups"),
      k(
        "lookup_bind_password",
        "Password for LDAP read-only service account used to perform DN and group lookups",
        "string",
        true,
        true,
      ),
      comment,
    ],
  },
  ...["logger_webhook", "audit_webhook"].map((name) => ({
    name,
    description: name === "logger_webhook"
      ? "send server logs to webhook endpoints"
      : "send audit logs to webhook endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("endpoint", 'HTTP(s) endpoint e.g. "http://localhost:8080/minio/logs/server"', "url"),
      k("auth_token", "opaque string or JWT authorization token", "string", true, true),
      k("client_cert", "mTLS certificate for webhook authentication", "path"),
      k("client_key", "mTLS certificate key for webhook authentication", "path"),
      ...(name === "logger_webhook" ? [k("proxy", "proxy url endpoint e.g. http(s)://proxy", "url")] : []),
      k("batch_size", "Number of events per HTTP send to webhook target", "number"),
      k("queue_size", "configure channel queue size for webhook targets", "number"),
      k("queue_dir", "staging dir for undelivered logs e.g. '/home/logs'", "path"),
      k("max_retry", "maximum retry count before we start dropping logged event(s)", "number"),
      k("retry_interval", "sleep between each retries, allowed maximum value is '1m' e.g. '10s'", "duration"),
      k("http_timeout", "defines the maximum duration for each http request", "duration"),
      comment,
    ],
  })),
  {
    name: "notify_webhook",
    description: "publish bucket notifications to webhook endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("endpoint", "webhook server endpoint e.g. http://localhost:8080/minio/events", "url"),
      k("auth_token", "opaque string or JWT authorization token", "string", true, true),
      ...queue,
      k("client_cert", "client cert for Webhook mTLS auth", "path"),
      k("client_key", "client cert key for Webhook mTLS auth", "path"),
      comment,
    ],
  },
  {
    name: "notify_amqp",
    description: "publish bucket notifications to AMQP endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("url", "AMQP server endpoint e.g. `amqp://myuser:mypassword@localhost:5672`", "url"),
      k("exchange", "name of the AMQP exchange"),
      k("exchange_type", "AMQP exchange type"),
      k("routing_key", "routing key for publishing"),
      k("mandatory", "quietly ignore undelivered messages when set to 'off', default is 'on'", "on|off"),
      k("durable", "persist queue across broker restarts when set to 'on', default is 'off'", "on|off"),
      k("no_wait", "non-blocking message delivery when set to 'on', default is 'off'", "on|off"),
      k(
        "internal",
        "set to 'on' for exchange to be not used directly by publishers, but only when bound to other exchanges",
        "on|off",
      ),
      k("auto_deleted", "auto delete queue when set to 'on', when there are no consumers", "on|off"),
      k("delivery_mode", "set to '1' for non-persistent or '2' for persistent queue", "number"),
      k("publisher_confirms", "enable publisher confirms, defaults to 'off'", "on|off"),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_kafka",
    description: "publish bucket notifications to Kafka endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("brokers", "comma separated list of Kafka broker addresses", "csv"),
      k("topic", "Kafka topic used for bucket notifications"),
      k("sasl_username", "username for SASL/PLAIN or SASL/SCRAM authentication"),
      k("sasl_password", "password for SASL/PLAIN or SASL/SCRAM authentication", "string", true, true),
      k("sasl_mechanism", "sasl authentication mechanism, default 'plain'"),
      k("tls_client_auth", "clientAuth determines the Kafka server's policy for TLS client auth"),
      k("sasl", "set to 'on' to enable SASL authentication", "on|off"),
      k("tls", "set to 'on' to enable TLS", "on|off"),
      k("tls_skip_verify", 'trust server TLS without verification, defaults to "on" (verify)', "on|off"),
      k("client_tls_cert", "path to client certificate for mTLS auth", "path"),
      k("client_tls_key", "path to client key for mTLS auth", "path"),
      k("version", "specify the version of the Kafka cluster"),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_mqtt",
    description: "publish bucket notifications to MQTT endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("broker", "MQTT server endpoint e.g. `tcp://localhost:1883`", "url"),
      req("topic", "name of the MQTT topic to publish"),
      k("username", "MQTT username"),
      k("password", "MQTT password", "string", true, true),
      k("qos", "set the quality of service priority, defaults to '0'", "number"),
      k("keep_alive_interval", "keep-alive interval for MQTT connections in s,m,h,d", "duration"),
      k("reconnect_interval", "reconnect interval for MQTT connections in s,m,h,d", "duration"),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_nats",
    description: "publish bucket notifications to NATS endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("address", "NATS server address e.g. '0.0.0.0:4222'"),
      req("subject", "NATS subscription subject"),
      k("username", "NATS username"),
      k("password", "NATS password", "string", true, true),
      k("token", "NATS token", "string", true, true),
      k("tls", "set to 'on' to enable TLS", "on|off"),
      k("tls_skip_verify", 'trust server TLS without verification, defaults to "on" (verify)', "on|off"),
      k("ping_interval", "client ping commands interval in s,m,h,d. Disabled by default", "duration"),
      k("streaming", "set to 'on', to use streaming NATS server", "on|off"),
      k("streaming_async", "set to 'on', to enable asynchronous publish", "on|off"),
      k(
        "streaming_max_pub_acks_in_flight",
        "number of messages to publish without waiting for ACKs",
        "number",
      ),
      k("streaming_cluster_id", "unique ID for NATS streaming cluster"),
      k("cert_authority", "path to certificate chain of the target NATS server", "path"),
      k("client_cert", "client cert for NATS mTLS auth", "path"),
      k("client_key", "client cert key for NATS mTLS auth", "path"),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_nsq",
    description: "publish bucket notifications to NSQ endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("nsqd_address", "NSQ server address e.g. '127.0.0.1:4150'"),
      req("topic", "NSQ topic"),
      k("tls", "set to 'on' to enable TLS", "on|off"),
      k("tls_skip_verify", 'trust server TLS without verification, defaults to "on" (verify)', "on|off"),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_mysql",
    description: "publish bucket notifications to MySQL databases",
    multipleTargets: true,
    keys: [
      enable,
      req("format", "desired format e.g. 'namespace' or 'access'"),
      req(
        "dsn_string",
        'MySQL data-source-name connection string e.g. "<user>:<password>@tcp(<host>:<port>)/<database>"',
        "string",
        true,
      ),
      req("table", "DB table name to store/update events, table is auto-created"),
      ...queue,
      k("max_open_connections", "To set the maximum number of open connections to the database", "number"),
      comment,
    ],
  },
  {
    name: "notify_postgres",
    description: "publish bucket notifications to Postgres databases",
    multipleTargets: true,
    keys: [
      enable,
      req("format", "desired format e.g. 'namespace' or 'access'"),
      req(
        "connection_string",
        'Postgres server connection-string e.g. "host=localhost port=5432 dbname=minio_events user=postgres password=password sslmode=disable"',
        "string",
        true,
      ),
      req("table", "DB table name to store/update events, table is auto-created"),
      ...queue,
      k("max_open_connections", "To set the maximum number of open connections to the database", "number"),
      comment,
    ],
  },
  {
    name: "notify_elasticsearch",
    description: "publish bucket notifications to Elasticsearch endpoints",
    multipleTargets: true,
    keys: [
      enable,
      req("url", "Elasticsearch server's address, with optional authentication info", "url"),
      req("index", "Elasticsearch index to store/update events, index is auto-created"),
      req(
        "format",
        "'namespace' reflects current bucket/object list and 'access' reflects a journal of object operations",
      ),
      k("username", "username for Elasticsearch basic-auth"),
      k("password", "password for Elasticsearch basic-auth", "string", true, true),
      ...queue,
      comment,
    ],
  },
  {
    name: "notify_redis",
    description: "publish bucket notifications to Redis datastores",
    multipleTargets: true,
    keys: [
      enable,
      req("address", "Redis server's address. For example: `localhost:6379`"),
      req("key", "Redis key to store/update events, key is auto-created"),
      k("format", "desired format e.g. 'namespace' or 'access'"),
      k("password", "Redis server password", "string", true, true),
      ...queue,
      comment,
    ],
  },
];

export const subsystem = (name: string) => SUBSYSTEMS.find((s) => s.name === name);

/** ARN type of a notify_* subsystem (postgres is "postgresql" in ARNs, §3.9). */
export function arnType(subsystemName: string): string {
  const type = subsystemName.slice("notify_".length);
  return type === "postgres" ? "postgresql" : type;
}
