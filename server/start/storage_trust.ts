/**
 * Which certificates the console trusts when it calls its storage server over HTTPS, besides the system's:
 * CONSOLE_MINIO_CA_FILE (a private CA of an external server), and for the embedded storage with a certificate
 * (CONSOLE_STORAGE_CERTS_DIR, MinIO's layout) its own `public.crt` and the certificates in `CAs/`, so a
 * self-signed or privately signed storage works without further settings.
 */
import type { AppConfig } from "../console/config/config.ts";
import { readCertsDirTrust, readPemCertificates } from "../lib/http/trusted_cas.ts";

/** The PEM certificates the console trusts for its storage server besides the system's (none: the system's). */
export async function storageTrust(config: AppConfig): Promise<string[]> {
  const pems: string[] = [];
  if (config.minioCaFile) pems.push(await readPemCertificates(config.minioCaFile, "CONSOLE_MINIO_CA_FILE"));
  const dir = config.minioServer || config.operator ? null : config.storage.certsDir;
  if (dir) pems.push(...await readCertsDirTrust(dir, "CONSOLE_STORAGE_CERTS_DIR"));
  return pems;
}

/**
 * Calls the embedded storage once, so a certificate the console cannot verify stops the start with the reason
 * instead of every sign-in failing later. rustls refuses a self-signed certificate marked as a CA (MinIO's
 * `certgen` makes those unless given `-no-ca`), and one that does not name the address the console calls.
 */
export async function checkStorageReachable(url: string, fetchImpl: typeof fetch): Promise<void> {
  try {
    const res = await fetchImpl(`${url}/minio/health/live`, { signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
  } catch (error) {
    const reason = error instanceof Error ? `${error.message} ${error.cause ?? ""}`.trim() : String(error);
    const hint = /CaUsedAsEndEntity/.test(reason)
      ? ": public.crt is a self-signed CA certificate; use a server certificate (certgen -no-ca), or one signed by a CA in CAs/"
      : /certificate/i.test(reason)
      ? `: public.crt must name the address the console calls (${
        new URL(url).hostname
      }) and be signed by a CA in CAs/ or by itself`
      : "";
    throw new Error(
      `CONSOLE_STORAGE_CERTS_DIR: the console cannot reach the embedded storage at ${url}${hint} (${reason})`,
    );
  }
}
