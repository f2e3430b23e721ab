/**
 * Every setting Deck reads: its environment variable, its flag if it has one, its default and what it does.
 * The README's configuration table lists the same rows (tests/readme_test.ts compares them); config.ts
 * parses the values into AppConfig.
 */

/** One documented setting; the table below is mirrored in the README. */
export interface SettingSpec {
  env: string;
  flag?: string;
  default: string;
  description: string;
  /** Secrets may come from env only, never from flags (flags show up in `ps`). */
  secret?: boolean;
}

/** Every setting Deck reads, in README order. */
export const SETTINGS = {
  hostname: {
    env: "CONSOLE_HOSTNAME",
    flag: "--host",
    default: "0.0.0.0",
    description: "Address the console listens on.",
  },
  port: { env: "CONSOLE_PORT", flag: "--port", default: "9090", description: "Port the console listens on." },
  tlsCert: {
    env: "CONSOLE_TLS_CERT",
    flag: "--tls-cert",
    default: "",
    description: "PEM certificate file; with CONSOLE_TLS_KEY the console serves HTTPS only.",
  },
  tlsKey: {
    env: "CONSOLE_TLS_KEY",
    flag: "--tls-key",
    default: "",
    description: "PEM private key file for CONSOLE_TLS_CERT.",
  },
  certsDir: {
    env: "CONSOLE_CERTS_DIR",
    flag: "--certs-dir",
    default: "",
    description: "Directory holding public.crt and private.key (alternative to the two settings above).",
  },
  minioServer: {
    env: "CONSOLE_MINIO_SERVER",
    flag: "--minio-server",
    default: "",
    description: "URL of an external MinIO/S3 server. Unset: Deck starts its embedded storage server.",
  },
  minioCaFile: {
    env: "CONSOLE_MINIO_CA_FILE",
    flag: "--minio-ca-file",
    default: "",
    description:
      "PEM file of CA certificates the console trusts, besides the system's, for a storage server on HTTPS (a private CA of CONSOLE_MINIO_SERVER).",
  },
  minioRegion: {
    env: "CONSOLE_MINIO_REGION",
    default: "",
    description: "Region used to sign STS calls to the storage server (empty works for MinIO).",
  },
  dataDir: {
    env: "CONSOLE_DATA_DIR",
    flag: "--data-dir",
    default: "./data",
    description: "Data directory of the embedded storage server.",
  },
  storageAddress: {
    env: "CONSOLE_STORAGE_ADDRESS",
    flag: "--storage-address",
    default: "127.0.0.1:9000",
    description: "host:port the embedded S3/admin/STS listener binds.",
  },
  storageCertsDir: {
    env: "CONSOLE_STORAGE_CERTS_DIR",
    flag: "--storage-certs-dir",
    default: "",
    description:
      "Embedded storage's certificate directory in MinIO's layout (public.crt, private.key, CAs/): it then serves HTTPS only and takes SSE-C keys from any client. Unset: plain HTTP.",
  },
  storagePublicUrl: {
    env: "CONSOLE_STORAGE_PUBLIC_URL",
    flag: "--storage-public-url",
    default: "",
    description:
      "The storage server's URL as browsers and share-link recipients reach it. Set: upload parts go straight to storage on presigned URLs, and storage share links use it.",
  },
  rootUser: {
    env: "MINIO_ROOT_USER",
    default: "",
    description:
      "Embedded server root access key. Unset: generated on first start and kept in <data dir>/.deck/root-credentials.json (mode 0600).",
    secret: true,
  },
  rootPassword: {
    env: "MINIO_ROOT_PASSWORD",
    default: "",
    description: "Embedded server root secret key (8-40 characters); set together with MINIO_ROOT_USER.",
    secret: true,
  },
  pbkdfPassphrase: {
    env: "CONSOLE_PBKDF_PASSPHRASE",
    default: "",
    description:
      "Passphrase the session-cookie key is derived from. Unset: random per start (sessions end on restart).",
    secret: true,
  },
  pbkdfSalt: {
    env: "CONSOLE_PBKDF_SALT",
    default: "",
    description: "Salt for the session-cookie key; set together with CONSOLE_PBKDF_PASSPHRASE.",
    secret: true,
  },
  kmsSecretKey: {
    env: "MINIO_KMS_SECRET_KEY",
    default: "",
    description:
      "Key store of the embedded server's SSE-S3 and SSE-KMS encryption: <key-name>:<base64 of 32 bytes>, MinIO's single static key. Unset: SSE-S3 and SSE-KMS are refused (SSE-C still works).",
    secret: true,
  },
  sessionDuration: {
    env: "CONSOLE_SESSION_DURATION",
    flag: "--session-duration",
    default: "12h",
    description:
      "How long a sign-in lasts (Go-style duration, 15m to 365d); also the STS credential lifetime.",
  },
  subpath: {
    env: "CONSOLE_SUBPATH",
    flag: "--subpath",
    default: "/",
    description: "Path prefix the console is served under behind a reverse proxy, e.g. /console/.",
  },
  idpUrl: {
    env: "CONSOLE_IDP_URL",
    default: "",
    description: "OpenID provider discovery URL; with client id and callback it switches sign-in to SSO.",
  },
  idpClientId: { env: "CONSOLE_IDP_CLIENT_ID", default: "", description: "OpenID client id." },
  idpSecret: { env: "CONSOLE_IDP_SECRET", default: "", description: "OpenID client secret.", secret: true },
  idpCallback: {
    env: "CONSOLE_IDP_CALLBACK",
    default: "",
    description: "OpenID redirect URL, ending in /oauth_callback.",
  },
  idpScopes: {
    env: "CONSOLE_IDP_SCOPES",
    default: "openid,profile,email",
    description: "OpenID scopes, comma-separated.",
  },
  idpAutoRedirect: {
    env: "CONSOLE_IDP_AUTO_REDIRECT",
    default: "off",
    description:
      "on: /login goes straight to the OpenID provider (sites with only SSO); /login?form=1 still shows the access-key form, for the root account.",
  },
  ldapEnabled: {
    env: "CONSOLE_LDAP_ENABLED",
    default: "auto",
    description:
      "Directory (LDAP/AD) sign-in through the login form. auto: a name and password the storage does not know as its own user are tried against the storage's directory when it has one (identity_ldap). on: the same, and a storage without a directory is reported as a misconfiguration. off: storage users only.",
  },
  trustForwarded: {
    env: "CONSOLE_TRUST_FORWARDED",
    flag: "--trust-forwarded",
    default: "off",
    description:
      "on behind a reverse proxy setting X-Forwarded-Host/-Proto/-For: origin checks and share links use its host and scheme, sign-in throttling and per-sender limits its address. off: ignored (anyone can send them).",
  },
  headerTimeout: {
    env: "CONSOLE_HEADER_TIMEOUT",
    flag: "--header-timeout",
    default: "30s",
    description:
      "How long a client may take to send a request's headers, on every listener: console, embedded storage, log search (0 disables).",
  },
  idleTimeout: {
    env: "CONSOLE_IDLE_TIMEOUT",
    flag: "--idle-timeout",
    default: "30s",
    description:
      "How long a kept-alive connection may wait for its next request, on every listener (0 disables).",
  },
  bodyTimeout: {
    env: "CONSOLE_BODY_TIMEOUT",
    flag: "--body-timeout",
    default: "30s",
    description:
      "How long a request body may send nothing, or a response wait on a client that reads nothing, on every listener (0 disables).",
  },
  logLevel: {
    env: "CONSOLE_LOG_LEVEL",
    flag: "--log-level",
    default: "info",
    description: "Log level: error, warn, info or debug.",
  },
  logQueryUrl: {
    env: "CONSOLE_LOG_QUERY_URL",
    default: "",
    description:
      "URL of an external Log Search API for Audit Logs. Unset: Deck's built-in log search (see CONSOLE_LOG_SEARCH).",
  },
  logQueryToken: {
    env: "CONSOLE_LOG_QUERY_AUTH_TOKEN",
    default: "",
    description: "Query token of the external Log Search API.",
    secret: true,
  },
  logSearch: {
    env: "CONSOLE_LOG_SEARCH",
    flag: "--log-search",
    default: "on",
    description:
      "Built-in audit log search (on or off): stores the storage's audit webhook records and answers Audit Logs.",
  },
  logSearchDatabaseUrl: {
    env: "CONSOLE_LOG_SEARCH_DATABASE_URL",
    default: "",
    description:
      "PostgreSQL URL for the built-in log search (optional ?schema=name). Unset: SQLite in <data dir>/logsearch/.",
    secret: true,
  },
  logSearchAddress: {
    env: "CONSOLE_LOG_SEARCH_ADDRESS",
    flag: "--log-search-address",
    default: "",
    description:
      "host:port where the built-in log search receives audit webhooks (/api/ingest). Unset: a free port on 127.0.0.1 (the embedded storage is told which); set it for an external MinIO.",
  },
  logSearchAuditToken: {
    env: "CONSOLE_LOG_SEARCH_AUDIT_TOKEN",
    default: "",
    description:
      "Token audit webhooks must send (?token=). Unset: random per start; set it to point another MinIO at Deck.",
    secret: true,
  },
  logSearchRetention: {
    env: "CONSOLE_LOG_SEARCH_RETENTION",
    flag: "--log-search-retention",
    default: "30d",
    description: "How long audit records are kept (duration; 0 keeps them forever).",
  },
  prometheusUrl: {
    env: "CONSOLE_PROMETHEUS_URL",
    default: "",
    description:
      "Prometheus the dashboard widgets query. Unset: Deck samples the storage server's metrics itself and keeps a day of history on this machine.",
  },
  prometheusJobId: {
    env: "CONSOLE_PROMETHEUS_JOB_ID",
    default: "minio-job",
    description:
      "Prometheus job (the `job` label) that scrapes the storage server's /minio/v2/metrics/cluster.",
  },
  prometheusExtraLabels: {
    env: "CONSOLE_PROMETHEUS_EXTRA_LABELS",
    default: "",
    description: 'Extra label matchers added to every widget query, e.g. cluster="eu-1".',
  },
  prometheusAuthToken: {
    env: "CONSOLE_PROMETHEUS_AUTH_TOKEN",
    default: "",
    description: "Bearer token sent to CONSOLE_PROMETHEUS_URL.",
    secret: true,
  },
  prometheusUsername: {
    env: "CONSOLE_PROMETHEUS_USERNAME",
    default: "",
    description: "Basic-auth user for CONSOLE_PROMETHEUS_URL (with CONSOLE_PROMETHEUS_PASSWORD).",
  },
  prometheusPassword: {
    env: "CONSOLE_PROMETHEUS_PASSWORD",
    default: "",
    description: "Basic-auth password for CONSOLE_PROMETHEUS_URL.",
    secret: true,
  },
  metricsBearerToken: {
    env: "CONSOLE_METRICS_BEARER_TOKEN",
    default: "",
    description:
      "Token for an external storage server's /minio/v2/metrics/* when Deck samples it (from `mc admin prometheus generate`). Unset: sampled without a token (MINIO_PROMETHEUS_AUTH_TYPE=public).",
    secret: true,
  },
  lifecycleScanInterval: {
    env: "CONSOLE_LIFECYCLE_SCAN_INTERVAL",
    flag: "--lifecycle-scan-interval",
    default: "5m",
    description:
      "Time between the embedded storage's lifecycle scans (expiry, transitions to tiers, aborting stale uploads); 0 turns scanning off.",
  },
  lifecycleDay: {
    env: "CONSOLE_LIFECYCLE_DAY",
    flag: "--lifecycle-day",
    default: "24h",
    description:
      'How long a lifecycle "day" lasts for the embedded storage\'s rules (Days in lifecycle rules). Shorter only to try rules out or in tests, e.g. 1s.',
  },
  storagePrometheusAuth: {
    env: "MINIO_PROMETHEUS_AUTH_TYPE",
    default: "jwt",
    description:
      "How the embedded server's /minio/v2/metrics/* authenticates: jwt (a bearer token for an account allowed admin:Prometheus) or public.",
  },
  subnetLicense: {
    env: "CONSOLE_SUBNET_LICENSE",
    default: "",
    description: "SUBNET licence key (the signed licence text) shown on the License page; verified offline.",
    secret: true,
  },
  subnetPublicKeyFile: {
    env: "CONSOLE_SUBNET_PUBLIC_KEY_FILE",
    default: "",
    description: "PEM file with another public key licences may be signed with (besides SUBNET's own).",
  },
  operatorMode: {
    env: "CONSOLE_OPERATOR_MODE",
    flag: "--operator-mode",
    default: "off",
    description:
      "on: operator mode, managing tenants on Kubernetes instead of one storage server (no embedded storage starts).",
  },
  k8sApiServer: {
    env: "CONSOLE_K8S_API_SERVER",
    default: "",
    description:
      "Kubernetes API server URL. Unset: the in-cluster address (KUBERNETES_SERVICE_HOST/PORT), else the cluster of CONSOLE_KUBECONFIG, else http://localhost:8001 (kubectl proxy).",
  },
  k8sCaFile: {
    env: "CONSOLE_K8S_API_SERVER_TLS_ROOT_CA",
    default: "",
    description:
      "PEM CA file trusted for the API server; overrides the in-cluster service-account CA and the kubeconfig's.",
  },
  kubeconfig: {
    env: "CONSOLE_KUBECONFIG",
    default: "",
    description:
      "kubeconfig file whose current context gives the API server URL and CA (tokens still come from each operator's sign-in).",
  },
  k8sServiceAccess: {
    env: "CONSOLE_K8S_SERVICE_ACCESS",
    default: "dns",
    description:
      "How tenant services are reached: dns ({service}.{namespace}.svc.{domain}) or cluster-ip (the Service's cluster IP, for a console outside the cluster's DNS).",
  },
  clusterDomain: {
    env: "CONSOLE_CLUSTER_DOMAIN",
    default: "cluster.local",
    description: "Cluster DNS domain of tenant service names.",
  },
  operatorSaToken: {
    env: "CONSOLE_OPERATOR_SA_TOKEN",
    default: "",
    description:
      "Service-account token used for operator sessions opened through single sign-on. Unset: the in-cluster token.",
    secret: true,
  },
  minioImage: {
    env: "CONSOLE_MINIO_IMAGE",
    default: "minio/minio:RELEASE.2021-08-17T20-53-08Z",
    description: "MinIO image of new tenants when the wizard's custom image is off.",
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
