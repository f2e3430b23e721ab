/**
 * Configuration: every setting, read once from flags and environment, validated, defaulted and frozen.
 * Names follow MinIO Console's where one exists. Nothing else in the program reads `Deno.env`.
 */
import { parseDuration } from "./duration.ts";

/** One documented setting; the table below is mirrored in the README. */
interface SettingSpec {
  env: string;
  flag?: string;
  default: string;
  description: string;
  /** Secrets may come from env only, never from flags (flags show up in `ps`). */
  secret?: boolean;
}

/** Every setting Deck reads, in README order. */
export const SETTINGS = {
  hostname: { env: "CONSOLE_HOSTNAME", flag: "--host", default: "0.0.0.0", description: "Address the console listens on." },
  port: { env: "CONSOLE_PORT", flag: "--port", default: "9090", description: "Port the console listens on." },
  tlsCert: { env: "CONSOLE_TLS_CERT", flag: "--tls-cert", default: "", description: "PEM certificate file; with CONSOLE_TLS_KEY the console serves HTTPS only." },
  tlsKey: { env: "CONSOLE_TLS_KEY", flag: "--tls-key", default: "", description: "PEM private key file for CONSOLE_TLS_CERT." },
  certsDir: { env: "CONSOLE_CERTS_DIR", flag: "--certs-dir", default: "", description: "Directory holding public.crt and private.key (alternative to the two settings above)." },
  minioServer: { env: "CONSOLE_MINIO_SERVER", flag: "--minio-server", default: "", description: "URL of an external MinIO/S3 server. Unset: Deck starts its embedded storage server." },
  minioRegion: { env: "CONSOLE_MINIO_REGION", default: "", description: "Region used to sign STS calls to the storage server (empty works for MinIO)." },
  dataDir: { env: "CONSOLE_DATA_DIR", flag: "--data-dir", default: "./data", description: "Data directory of the embedded storage server." },
  storageAddress: { env: "CONSOLE_STORAGE_ADDRESS", flag: "--storage-address", default: "127.0.0.1:9000", description: "host:port the embedded S3/admin/STS listener binds." },
  rootUser: { env: "MINIO_ROOT_USER", default: "", description: "Embedded server root access key. Unset: generated on first start and kept in <data dir>/.deck/root-credentials.json (mode 0600).", secret: true },
  rootPassword: { env: "MINIO_ROOT_PASSWORD", default: "", description: "Embedded server root secret key (8-40 characters); set together with MINIO_ROOT_USER.", secret: true },
  pbkdfPassphrase: { env: "CONSOLE_PBKDF_PASSPHRASE", default: "", description: "Passphrase the session-cookie key is derived from. Unset: random per start (sessions end on restart).", secret: true },
  pbkdfSalt: { env: "CONSOLE_PBKDF_SALT", default: "", description: "Salt for the session-cookie key; set together with CONSOLE_PBKDF_PASSPHRASE.", secret: true },
  sessionDuration: { env: "CONSOLE_SESSION_DURATION", flag: "--session-duration", default: "12h", description: "How long a sign-in lasts (Go-style duration, 15m to 365d); also the STS credential lifetime." },
  subpath: { env: "CONSOLE_SUBPATH", flag: "--subpath", default: "/", description: "Path prefix the console is served under behind a reverse proxy, e.g. /console/." },
  idpUrl: { env: "CONSOLE_IDP_URL", default: "", description: "OpenID provider discovery URL; with client id and callback it switches sign-in to SSO." },
  idpClientId: { env: "CONSOLE_IDP_CLIENT_ID", default: "", description: "OpenID client id." },
  idpSecret: { env: "CONSOLE_IDP_SECRET", default: "", description: "OpenID client secret.", secret: true },
  idpCallback: { env: "CONSOLE_IDP_CALLBACK", default: "", description: "OpenID redirect URL, ending in /oauth_callback." },
  idpScopes: { env: "CONSOLE_IDP_SCOPES", default: "openid,profile,email", description: "OpenID scopes, comma-separated." },
  logLevel: { env: "CONSOLE_LOG_LEVEL", flag: "--log-level", default: "info", description: "Log level: error, warn, info or debug." },
} as const satisfies Record<string, SettingSpec>;

type SettingName = keyof typeof SETTINGS;

export type LogLevel = "error" | "warn" | "info" | "debug";

/** The validated configuration every part of Deck receives. */
export interface AppConfig {
  readonly hostname: string;
  readonly port: number;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  /** External storage URL without trailing slash, or null for the embedded server. */
  readonly minioServer: string | null;
  readonly minioRegion: string;
  readonly dataDir: string;
  readonly storage: { readonly hostname: string; readonly port: number };
  readonly root: { readonly accessKey: string; readonly secretKey: string } | null;
  readonly sessionKey: { readonly passphrase: string; readonly salt: string } | null;
  readonly sessionSeconds: number;
  /** Always starts and ends with "/" ("/" when served at the root). */
  readonly subpath: string;
  readonly idp: {
    readonly url: string;
    readonly clientId: string;
    readonly secret: string;
    readonly callback: string;
    readonly scopes: string[];
  } | null;
  readonly logLevel: LogLevel;
}

/** A setting with a bad value; start-up stops with its message. */
export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = "ConfigError";
  }
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

function parseTls(raw: Record<SettingName, string>): AppConfig["tls"] {
  if (raw.certsDir) {
    if (raw.tlsCert || raw.tlsKey) {
      throw new ConfigError(SETTINGS.certsDir.flag, "use either --certs-dir or CONSOLE_TLS_CERT/CONSOLE_TLS_KEY");
    }
    const dir = raw.certsDir.replace(/\/+$/, "");
    return { certFile: `${dir}/public.crt`, keyFile: `${dir}/private.key` };
  }
  if (!raw.tlsCert && !raw.tlsKey) return null;
  if (!raw.tlsCert || !raw.tlsKey) {
    throw new ConfigError(raw.tlsCert ? SETTINGS.tlsKey.env : SETTINGS.tlsCert.env, "TLS needs both a certificate and a key");
  }
  return { certFile: raw.tlsCert, keyFile: raw.tlsKey };
}

function parsePair(a: SettingSpec, b: SettingSpec, first: string, second: string): [string, string] | null {
  if (!first && !second) return null;
  if (!first || !second) throw new ConfigError(first ? b.env : a.env, `set together with ${first ? a.env : b.env}`);
  return [first, second];
}

/** Parses flags and environment into the frozen configuration; throws ConfigError naming the bad setting. */
export function loadConfig(env: Record<string, string | undefined>, args: string[] = []): AppConfig {
  const raw = collectRaw(env, args);
  const root = parsePair(SETTINGS.rootUser, SETTINGS.rootPassword, raw.rootUser, raw.rootPassword);
  if (root && root[0].length < 3) throw new ConfigError(SETTINGS.rootUser.env, "must be at least 3 characters");
  if (root && (root[1].length < 8 || root[1].length > 40)) {
    throw new ConfigError(SETTINGS.rootPassword.env, "must be 8 to 40 characters");
  }
  const sessionKey = parsePair(SETTINGS.pbkdfPassphrase, SETTINGS.pbkdfSalt, raw.pbkdfPassphrase, raw.pbkdfSalt);
  const sessionSeconds = parseDurationSetting(SETTINGS.sessionDuration.env, raw.sessionDuration);
  if (sessionSeconds < 900 || sessionSeconds > 31536000) {
    throw new ConfigError(SETTINGS.sessionDuration.env, "must be between 15m and 8760h (the STS limits)");
  }
  const idpSet = [raw.idpUrl, raw.idpClientId, raw.idpCallback].filter(Boolean).length;
  if (idpSet > 0 && idpSet < 3) {
    throw new ConfigError(SETTINGS.idpUrl.env, "SSO needs CONSOLE_IDP_URL, CONSOLE_IDP_CLIENT_ID and CONSOLE_IDP_CALLBACK");
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
    dataDir: raw.dataDir || "./data",
    storage: parseAddress(SETTINGS.storageAddress.env, raw.storageAddress),
    root: root ? { accessKey: root[0], secretKey: root[1] } : null,
    sessionKey: sessionKey ? { passphrase: sessionKey[0], salt: sessionKey[1] } : null,
    sessionSeconds,
    subpath: parseSubpath(raw.subpath),
    idp: idpSet === 3
      ? {
        url: parseHttpUrl(SETTINGS.idpUrl.env, raw.idpUrl).href,
        clientId: raw.idpClientId,
        secret: raw.idpSecret,
        callback: raw.idpCallback,
        scopes: raw.idpScopes.split(",").map((s) => s.trim()).filter(Boolean),
      }
      : null,
    logLevel: raw.logLevel as LogLevel,
  });
}

function parseDurationSetting(setting: string, value: string): number {
  const seconds = parseDuration(value);
  if (seconds === null) throw new ConfigError(setting, `"${value}" is not a duration such as 12h, 90m or 1h30m`);
  return seconds;
}
