/**
 * The TLS settings: the console's own certificate and the embedded storage's certificate directory. Which CA
 * certificates the console trusts for its storage is storage_trust.ts, read at start from these.
 */
import { ConfigError } from "./config_error.ts";
import { type SettingName, SETTINGS } from "./settings.ts";

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** The console's own certificate: CONSOLE_TLS_CERT and _KEY, or MinIO Console's --certs-dir. */
export function parseTls(raw: Record<SettingName, string>): TlsFiles | null {
  if (raw.certsDir) {
    if (raw.tlsCert || raw.tlsKey) {
      throw new ConfigError(
        SETTINGS.certsDir.flag,
        "use either --certs-dir or CONSOLE_TLS_CERT/CONSOLE_TLS_KEY",
      );
    }
    const dir = raw.certsDir.replace(/\/+$/, "");
    return { certFile: `${dir}/public.crt`, keyFile: `${dir}/private.key` };
  }
  if (!raw.tlsCert && !raw.tlsKey) return null;
  if (!raw.tlsCert || !raw.tlsKey) {
    throw new ConfigError(
      raw.tlsCert ? SETTINGS.tlsKey.env : SETTINGS.tlsCert.env,
      "TLS needs both a certificate and a key",
    );
  }
  return { certFile: raw.tlsCert, keyFile: raw.tlsKey };
}

/** The embedded storage's certificate directory (MinIO's layout); only the embedded storage has one. */
export function parseStorageCertsDir(raw: Record<SettingName, string>): string | null {
  if (!raw.storageCertsDir) return null;
  if (raw.minioServer || raw.operatorMode === "on") {
    throw new ConfigError(
      SETTINGS.storageCertsDir.env,
      "is for the embedded storage; an external server's CA goes in CONSOLE_MINIO_CA_FILE",
    );
  }
  return raw.storageCertsDir.replace(/\/+$/, "");
}
