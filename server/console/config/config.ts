/**
 * Configuration: every setting, read once from flags and environment, validated, defaulted and frozen.
 * Names follow MinIO Console's where one exists. Nothing else in the program reads `Deno.env`. Which settings
 * exist, with their flags, defaults and docs, is the table in settings.ts; this module parses them.
 */
import { parseDuration } from "../../lib/http/duration.ts";
import type { ListenerTimeouts } from "../../lib/http/listener.ts";
import { type SettingName, SETTINGS, type SettingSpec } from "./settings.ts";
import type { LogLevel } from "../../lib/http/log.ts";
import { parseKmsSecretKey } from "../../lib/formats/kms_secret_key.ts";
import { ConfigError } from "./config_error.ts";
import { parseStorageCertsDir, parseTls, type TlsFiles } from "./config_tls.ts";

export { ConfigError };

/** The validated configuration every part of Deck receives. */
export interface AppConfig {
  readonly hostname: string;
  readonly port: number;
  readonly tls: TlsFiles | null;
  /** External storage URL without trailing slash, or null for the embedded server. */
  readonly minioServer: string | null;
  readonly minioRegion: string;
  /** CA certificates (PEM file) trusted for the storage server besides the system's, or null. */
  readonly minioCaFile: string | null;
  readonly dataDir: string;
  /** The embedded storage's listener; `certsDir` (MinIO's layout) makes it HTTPS. */
  readonly storage: { readonly hostname: string; readonly port: number; readonly certsDir: string | null };
  /** The storage as browsers reach it (direct part uploads, storage share links), or null. */
  readonly storagePublicUrl: string | null;
  readonly root: { readonly accessKey: string; readonly secretKey: string } | null;
  readonly sessionKey: { readonly passphrase: string; readonly salt: string } | null;
  readonly sessionSeconds: number;
  /** CONSOLE_LDAP_ENABLED: when the form tries the storage's directory (services/session_ldap.ts). */
  readonly ldapSignIn: "auto" | "on" | "off";
  /** MINIO_KMS_SECRET_KEY for the embedded storage ("" = no key store). */
  readonly kmsSecretKey: string;
  /** Always starts and ends with "/" ("/" when served at the root). */
  readonly subpath: string;
  readonly idp: {
    readonly url: string;
    readonly clientId: string;
    readonly secret: string;
    readonly callback: string;
    readonly scopes: string[];
    /** CONSOLE_IDP_AUTO_REDIRECT: /login leaves for the provider at once (the form stays at /login?form=1). */
    readonly autoRedirect: boolean;
  } | null;
  /** Whether X-Forwarded-Host names the console's host (only behind a reverse proxy that sets it). */
  readonly trustForwarded: boolean;
  /** Header, idle and body-progress timeouts of both listeners (console and embedded storage). */
  readonly timeouts: ListenerTimeouts;
  /** The embedded storage's lifecycle scanner: interval (0 = off) and length of a lifecycle day. */
  readonly lifecycle: { readonly intervalMs: number; readonly dayMs: number };
  readonly logLevel: LogLevel;
  readonly logSearch: {
    /** External Log Search API (CONSOLE_LOG_QUERY_URL), without trailing slash; null for none. */
    readonly queryUrl: string | null;
    readonly queryToken: string;
    /** The built-in service, when no external one is named and it is on. */
    readonly builtin: {
      readonly databaseUrl: string;
      readonly address: { readonly hostname: string; readonly port: number };
      /** "" generates one per start. */
      readonly auditToken: string;
      /** 0 keeps records forever. */
      readonly retentionSeconds: number;
    } | null;
  };
  /** Dashboard metrics: an external Prometheus, or null for the on-box history. */
  readonly prometheus: {
    readonly url: string;
    readonly jobId: string;
    readonly extraLabels: string;
    readonly auth:
      | { readonly bearer: string }
      | { readonly username: string; readonly password: string }
      | null;
  } | null;
  /** Job id the widgets select (also the `job` label the on-box sampler adds). */
  readonly prometheusJobId: string;
  /** Bearer token for an external storage's metrics endpoints ("" = none). */
  readonly metricsBearerToken: string;
  readonly storagePrometheusAuth: "jwt" | "public";
  readonly subnetLicense: string;
  readonly subnetPublicKeyFile: string;
  /** Operator mode's Kubernetes settings; null in console mode. */
  readonly operator: OperatorConfig | null;
}

export interface OperatorConfig {
  readonly apiServer: string | null;
  readonly caFile: string | null;
  readonly kubeconfig: string | null;
  readonly serviceAccess: "dns" | "cluster-ip";
  readonly clusterDomain: string;
  readonly serviceAccountToken: string;
  readonly minioImage: string;
}

/** Reads flags (`--name value` or `--name=value`) over environment over defaults. */
function collectRaw(env: Record<string, string | undefined>, args: string[]): Record<SettingName, string> {
  const fromFlags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) throw new ConfigError(arg, "unexpected argument (settings are --name value)");
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = Object.values(SETTINGS).find((s: SettingSpec) => s.flag === name);
    if (!spec) throw new ConfigError(name, "unknown flag (see the README's configuration table)");
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new ConfigError(name, "missing value");
    fromFlags.set(name, value);
  }
  const raw = {} as Record<SettingName, string>;
  for (const [key, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    const flagged = spec.flag ? fromFlags.get(spec.flag) : undefined;
    raw[key] = (flagged ?? env[spec.env] ?? spec.default).trim();
  }
  return raw;
}

function parsePort(setting: string, value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 0 || port > 65535) {
    throw new ConfigError(setting, `"${value}" is not a port number (0-65535)`);
  }
  return port;
}

function parseAddress(setting: string, value: string): { hostname: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(value);
  if (!match) throw new ConfigError(setting, `"${value}" is not host:port`);
  return { hostname: match[1].replace(/^\[|\]$/g, ""), port: parsePort(setting, match[2]) };
}

function parseHttpUrl(setting: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(setting, `"${value}" is not a URL such as http://minio.local:9000`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(setting, "must start with http:// or https://");
  }
  return url;
}

function parseServerUrl(setting: string, value: string): string | null {
  if (!value) return null;
  const url = parseHttpUrl(setting, value);
  if (url.pathname !== "/" || url.search || url.username) {
    throw new ConfigError(setting, "must be scheme://host[:port] with no path, query or credentials");
  }
  return url.origin;
}

function parseSubpath(value: string): string {
  if (!/^[A-Za-z0-9/_.~-]*$/.test(value) || value.includes("..")) {
    throw new ConfigError(SETTINGS.subpath.env, `"${value}" may only contain letters, digits, / _ . ~ -`);
  }
  const trimmed = value.replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}/` : "/";
}

function parsePair(a: SettingSpec, b: SettingSpec, first: string, second: string): [string, string] | null {
  if (!first && !second) return null;
  if (!first || !second) {
    throw new ConfigError(first ? b.env : a.env, `set together with ${first ? a.env : b.env}`);
  }
  return [first, second];
}

function checkKmsSecretKey(value: string): string {
  if (!value) return "";
  try {
    parseKmsSecretKey(value);
  } catch (error) {
    throw new ConfigError(
      SETTINGS.kmsSecretKey.env,
      `${(error as Error).message} (expected <key-name>:<base64 of 32 bytes>)`,
    );
  }
  return value;
}

/** Parses flags and environment into the frozen configuration; throws ConfigError naming the bad setting. */
export function loadConfig(env: Record<string, string | undefined>, args: string[] = []): AppConfig {
  const raw = collectRaw(env, args);
  const root = parsePair(SETTINGS.rootUser, SETTINGS.rootPassword, raw.rootUser, raw.rootPassword);
  if (root && root[0].length < 3) {
    throw new ConfigError(SETTINGS.rootUser.env, "must be at least 3 characters");
  }
  if (root && (root[1].length < 8 || root[1].length > 40)) {
    throw new ConfigError(SETTINGS.rootPassword.env, "must be 8 to 40 characters");
  }
  const sessionKey = parsePair(
    SETTINGS.pbkdfPassphrase,
    SETTINGS.pbkdfSalt,
    raw.pbkdfPassphrase,
    raw.pbkdfSalt,
  );
  const sessionSeconds = parseDurationSetting(SETTINGS.sessionDuration.env, raw.sessionDuration);
  if (sessionSeconds < 900 || sessionSeconds > 31536000) {
    throw new ConfigError(SETTINGS.sessionDuration.env, "must be between 15m and 8760h (the STS limits)");
  }
  const idpSet = [raw.idpUrl, raw.idpClientId, raw.idpCallback].filter(Boolean).length;
  if (idpSet > 0 && idpSet < 3) {
    throw new ConfigError(
      SETTINGS.idpUrl.env,
      "SSO needs CONSOLE_IDP_URL, CONSOLE_IDP_CLIENT_ID and CONSOLE_IDP_CALLBACK",
    );
  }
  if (!["auto", "on", "off"].includes(raw.ldapEnabled || "auto")) {
    throw new ConfigError(SETTINGS.ldapEnabled.env, `"${raw.ldapEnabled}" is not one of auto, on, off`);
  }
  if (!["error", "warn", "info", "debug"].includes(raw.logLevel)) {
    throw new ConfigError(SETTINGS.logLevel.env, `"${raw.logLevel}" is not one of error, warn, info, debug`);
  }
  return Object.freeze({
    hostname: raw.hostname || "0.0.0.0",
    port: parsePort(SETTINGS.port.env, raw.port),
    tls: parseTls(raw),
    minioServer: parseServerUrl(SETTINGS.minioServer.env, raw.minioServer),
    minioRegion: raw.minioRegion,
    minioCaFile: raw.minioCaFile || null,
    dataDir: raw.dataDir || "./data",
    storage: {
      ...parseAddress(SETTINGS.storageAddress.env, raw.storageAddress),
      certsDir: parseStorageCertsDir(raw),
    },
    storagePublicUrl: parseServerUrl(SETTINGS.storagePublicUrl.env, raw.storagePublicUrl),
    root: root ? { accessKey: root[0], secretKey: root[1] } : null,
    sessionKey: sessionKey ? { passphrase: sessionKey[0], salt: sessionKey[1] } : null,
    sessionSeconds,
    ldapSignIn: (raw.ldapEnabled || "auto") as "auto" | "on" | "off",
    kmsSecretKey: checkKmsSecretKey(raw.kmsSecretKey),
    subpath: parseSubpath(raw.subpath),
    idp: idpSet === 3
      ? {
        url: parseHttpUrl(SETTINGS.idpUrl.env, raw.idpUrl).href,
        clientId: raw.idpClientId,
        secret: raw.idpSecret,
        callback: raw.idpCallback,
        scopes: raw.idpScopes.split(",").map((s) => s.trim()).filter(Boolean),
        autoRedirect: parseSwitch(SETTINGS.idpAutoRedirect.env, raw.idpAutoRedirect),
      }
      : null,
    trustForwarded: parseSwitch(SETTINGS.trustForwarded.env, raw.trustForwarded),
    timeouts: {
      headerMs: parseTimeout(SETTINGS.headerTimeout.env, raw.headerTimeout),
      idleMs: parseTimeout(SETTINGS.idleTimeout.env, raw.idleTimeout),
      bodyMs: parseTimeout(SETTINGS.bodyTimeout.env, raw.bodyTimeout),
    },
    logLevel: raw.logLevel as LogLevel,
    lifecycle: parseLifecycle(raw),
    ...parseMetrics(raw),
    subnetLicense: raw.subnetLicense,
    subnetPublicKeyFile: raw.subnetPublicKeyFile,
    operator: parseOperator(raw),
    logSearch: parseLogSearch(raw),
  });
}

function parseLogSearch(raw: Record<SettingName, string>): AppConfig["logSearch"] {
  const queryUrl = raw.logQueryUrl
    ? parseHttpUrl(SETTINGS.logQueryUrl.env, raw.logQueryUrl).href.replace(/\/+$/, "")
    : null;
  if (raw.logSearch !== "on" && raw.logSearch !== "off") {
    throw new ConfigError(SETTINGS.logSearch.env, `"${raw.logSearch}" is not on or off`);
  }
  if (raw.logSearchDatabaseUrl && !/^postgres(ql)?:\/\//.test(raw.logSearchDatabaseUrl)) {
    throw new ConfigError(SETTINGS.logSearchDatabaseUrl.env, "must be a postgres:// or postgresql:// URL");
  }
  const retentionSeconds = raw.logSearchRetention === "0"
    ? 0
    : parseDurationSetting(SETTINGS.logSearchRetention.env, raw.logSearchRetention);
  return Object.freeze({
    queryUrl,
    queryToken: raw.logQueryToken,
    builtin: queryUrl || raw.logSearch === "off" ? null : Object.freeze({
      databaseUrl: raw.logSearchDatabaseUrl,
      // Unset: any free port; Deck points its own storage at whichever it gets.
      address: raw.logSearchAddress
        ? parseAddress(SETTINGS.logSearchAddress.env, raw.logSearchAddress)
        : { hostname: "127.0.0.1", port: 0 },
      auditToken: raw.logSearchAuditToken,
      retentionSeconds,
    }),
  });
}

/** One label matcher as PromQL writes it: name, operator, double-quoted value. */
const LABEL_MATCHER = /^\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=|!=|=~|!~)\s*"(?:[^"\\]|\\.)*"\s*$/;

function parseMetrics(
  raw: Record<SettingName, string>,
): Pick<AppConfig, "prometheus" | "prometheusJobId" | "metricsBearerToken" | "storagePrometheusAuth"> {
  if (!/^[^"\\\n]+$/.test(raw.prometheusJobId)) {
    throw new ConfigError(SETTINGS.prometheusJobId.env, "must be a job name without quotes or backslashes");
  }
  if (
    raw.prometheusExtraLabels &&
    !raw.prometheusExtraLabels.split(/,(?=\s*[a-zA-Z_])/).every((m) => LABEL_MATCHER.test(m))
  ) {
    throw new ConfigError(
      SETTINGS.prometheusExtraLabels.env,
      'must be comma-separated matchers such as cluster="eu-1"',
    );
  }
  const authType = raw.storagePrometheusAuth.toLowerCase();
  if (authType !== "jwt" && authType !== "public") {
    throw new ConfigError(
      SETTINGS.storagePrometheusAuth.env,
      `"${raw.storagePrometheusAuth}" is not jwt or public`,
    );
  }
  const basic = parsePair(
    SETTINGS.prometheusUsername,
    SETTINGS.prometheusPassword,
    raw.prometheusUsername,
    raw.prometheusPassword,
  );
  if (basic && raw.prometheusAuthToken) {
    throw new ConfigError(
      SETTINGS.prometheusAuthToken.env,
      "use either a bearer token or a username and password for Prometheus",
    );
  }
  let prometheus: AppConfig["prometheus"] = null;
  if (raw.prometheusUrl) {
    const url = parseHttpUrl(SETTINGS.prometheusUrl.env, raw.prometheusUrl);
    if (url.username || url.search) {
      throw new ConfigError(
        SETTINGS.prometheusUrl.env,
        "must have no credentials or query (use the auth settings)",
      );
    }
    prometheus = {
      url: url.href.replace(/\/+$/, ""),
      jobId: raw.prometheusJobId,
      extraLabels: raw.prometheusExtraLabels,
      auth: raw.prometheusAuthToken
        ? { bearer: raw.prometheusAuthToken }
        : basic
        ? { username: basic[0], password: basic[1] }
        : null,
    };
  }
  return {
    prometheus,
    prometheusJobId: raw.prometheusJobId,
    metricsBearerToken: raw.metricsBearerToken,
    storagePrometheusAuth: authType,
  };
}

function parseOperator(raw: Record<SettingName, string>): OperatorConfig | null {
  if (!["on", "off"].includes(raw.operatorMode)) {
    throw new ConfigError(SETTINGS.operatorMode.env, `"${raw.operatorMode}" is not on or off`);
  }
  if (raw.operatorMode !== "on") return null;
  if (!["dns", "cluster-ip"].includes(raw.k8sServiceAccess)) {
    throw new ConfigError(
      SETTINGS.k8sServiceAccess.env,
      `"${raw.k8sServiceAccess}" is not dns or cluster-ip`,
    );
  }
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(raw.clusterDomain)) {
    throw new ConfigError(SETTINGS.clusterDomain.env, `"${raw.clusterDomain}" is not a DNS domain`);
  }
  return {
    apiServer: raw.k8sApiServer ? parseServerUrl(SETTINGS.k8sApiServer.env, raw.k8sApiServer) : null,
    caFile: raw.k8sCaFile || null,
    kubeconfig: raw.kubeconfig || null,
    serviceAccess: raw.k8sServiceAccess as "dns" | "cluster-ip",
    clusterDomain: raw.clusterDomain,
    serviceAccountToken: raw.operatorSaToken,
    minioImage: raw.minioImage,
  };
}

/** on/off (MinIO's spelling), also true/false. */
function parseSwitch(setting: string, value: string): boolean {
  const lower = value.toLowerCase();
  if (lower === "on" || lower === "true") return true;
  if (lower === "off" || lower === "false" || lower === "") return false;
  throw new ConfigError(setting, `"${value}" is not on or off`);
}

function parseLifecycle(raw: Record<SettingName, string>): AppConfig["lifecycle"] {
  const intervalMs = Math.round(
    parseDurationSetting(SETTINGS.lifecycleScanInterval.env, raw.lifecycleScanInterval) * 1000,
  );
  if (intervalMs !== 0 && intervalMs < 100) {
    throw new ConfigError(SETTINGS.lifecycleScanInterval.env, "must be 0 (off) or at least 100ms");
  }
  const dayMs = Math.round(parseDurationSetting(SETTINGS.lifecycleDay.env, raw.lifecycleDay) * 1000);
  if (dayMs < 1000 || dayMs > 86_400_000) {
    throw new ConfigError(SETTINGS.lifecycleDay.env, "must be between 1s and 24h");
  }
  return { intervalMs, dayMs };
}

/** A listener timeout in milliseconds: 0 (off) or between 100 ms and a day. */
function parseTimeout(setting: string, value: string): number {
  const ms = Math.round(parseDurationSetting(setting, value) * 1000);
  if (ms !== 0 && (ms < 100 || ms > 86_400_000)) {
    throw new ConfigError(setting, "must be 0 (off) or between 100ms and 24h");
  }
  return ms;
}

function parseDurationSetting(setting: string, value: string): number {
  const seconds = parseDuration(value);
  if (seconds === null) {
    throw new ConfigError(setting, `"${value}" is not a duration such as 12h, 90m or 1h30m`);
  }
  return seconds;
}
